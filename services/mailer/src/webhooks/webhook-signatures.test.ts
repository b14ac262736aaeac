import { createSign, generateKeyPairSync } from 'node:crypto';
import { mailgunSignature, verifyMailgunSignature, verifySendgridSignature } from './webhook-signatures';

describe('webhook signatures', () => {
  it('when Mailgun fields are signed with the key, then they verify; any change fails', () => {
    const signature = mailgunSignature('key', '1700000000', 'tok');
    expect(verifyMailgunSignature('key', { timestamp: '1700000000', token: 'tok', signature })).toBe(true);
    expect(verifyMailgunSignature('key', { timestamp: '1700000001', token: 'tok', signature })).toBe(false);
    expect(verifyMailgunSignature('other', { timestamp: '1700000000', token: 'tok', signature })).toBe(false);
    expect(verifyMailgunSignature('key', { timestamp: '1700000000', token: 'tok', signature: 'short' })).toBe(false);
  });

  it('when a SendGrid payload is signed with the private key, then the public key (DER or PEM) verifies it; garbage fails', () => {
    const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    const body = Buffer.from('[{"event":"delivered"}]');
    const sig = createSign('sha256').update('123').update(body).sign(privateKey).toString('base64');
    const der = publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
    const pem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
    expect(verifySendgridSignature(der, body, sig, '123')).toBe(true);
    expect(verifySendgridSignature(pem, body, sig, '123')).toBe(true);
    expect(verifySendgridSignature(der, Buffer.from('[]'), sig, '123')).toBe(false);
    expect(verifySendgridSignature(der, body, 'bm90IGEgc2ln', '123')).toBe(false);
    expect(verifySendgridSignature('not a key', body, sig, '123')).toBe(false);
  });
});
