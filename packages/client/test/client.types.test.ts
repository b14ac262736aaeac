/**
 * Type-level rules of the client, checked by `pnpm typecheck` (tsc reads this file; a
 * `@ts-expect-error` that no longer finds an error fails it). Nothing is sent: the calls are
 * only type-checked inside a function that is never run.
 */
import { expectTypeOf } from 'expect-type';
import { createClient, type ErrorCode } from '../src';

function typeRules(): void {
  const client = createClient();

  // A correct body compiles, and `data` has the documented response's fields.
  void client.auth.postRegister({ body: { email: 'a@example.com', password: 'long enough' } }).then((result) => {
    if (result.data) expectTypeOf(result.data.accessToken).toEqualTypeOf<string>();
    if (result.error) expectTypeOf(result.error.error.code).toEqualTypeOf<ErrorCode>();
    expectTypeOf(result.requestId).toEqualTypeOf<string | null>();
  });

  // @ts-expect-error a misspelt body field does not compile
  void client.auth.postRegister({ body: { emial: 'a@example.com', password: 'long enough' } });
  // @ts-expect-error an unknown extra body field does not compile
  void client.auth.postLogin({ body: { email: 'a@example.com', password: 'x', rememberMe: true } });
  // @ts-expect-error a wrongly typed field does not compile
  void client.notifications.postNotifications({ body: { title: 'hi', message: 1 } });
  // @ts-expect-error a required body cannot be left out
  void client.auth.postLogin();
  // @ts-expect-error a required path parameter cannot be left out
  void client.cms.getContentByContentId({ params: { path: {} } });
  // @ts-expect-error a query parameter of the wrong type does not compile
  void client.notifications.getNotifications({ params: { query: { limit: 'ten' } } });
  // @ts-expect-error an operation that does not exist is not a method
  void client.cms.deleteNews();

  // Named operations keep the document's operationId.
  expectTypeOf(client.billing.createCustomer).toBeFunction();
  // The error code is the closed list, not any string.
  expectTypeOf<'RATE_LIMITED'>().toExtend<ErrorCode>();
  expectTypeOf<'SOMETHING_ELSE'>().not.toExtend<ErrorCode>();
}

test('when the client is type-checked, then the rules above hold (see pnpm typecheck)', () => {
  expect(typeof typeRules).toBe('function');
});
