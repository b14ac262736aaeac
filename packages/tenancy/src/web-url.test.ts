import { isWebOrigin, parseWebUrl } from './web-url';

describe('parseWebUrl and isWebOrigin', () => {
  it('when a URL passes RFC 3986 but not the WHATWG parser, or is not http(s), then it is refused', () => {
    expect(parseWebUrl('https://xn--/')).toBeUndefined();
    expect(parseWebUrl('ftp://example.com/')).toBeUndefined();
    expect(parseWebUrl('https://example.com/hook')?.hostname).toBe('example.com');
  });

  it('when an origin has a path, a trailing slash or no scheme, then it is not one a browser sends', () => {
    expect(isWebOrigin('https://app.example.com')).toBe(true);
    expect(isWebOrigin('http://localhost:3000')).toBe(true);
    expect(isWebOrigin('https://app.example.com/')).toBe(false);
    expect(isWebOrigin('app.example.com')).toBe(false);
  });
});
