import { createTestService, personalColumns, type TestService } from '@platform/testkit';
import { llmService } from '../src';

let svc: TestService;
beforeAll(async () => {
  svc = await createTestService(llmService);
});
afterAll(() => svc?.close());

describe('user erasure', () => {
  it('when the columns that can name a person are listed, then there are none: a deleted user leaves nothing here to erase', async () => {
    expect(await personalColumns(svc.deps.db)).toEqual([]);
  });
});
