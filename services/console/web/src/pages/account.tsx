/** Sign up, sign in, verify e-mail, forgot and reset password: errors in words, next to the field. */
import { useQueryClient } from '@tanstack/preact-query';
import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { CallFailed, controlPlane, unwrap } from '../api';
import { Busy, Field, messageOf, Notice } from '../ui';

type Errors = Partial<Record<'email' | 'password' | 'token' | 'form', string>>;

/** Maps a refusal onto the fields it is about; what belongs to no field is shown above the button. */
function errorsOf(error: unknown): Errors {
  if (!(error instanceof CallFailed)) return { form: messageOf(error) };
  const fields = error.fieldMessages;
  const out: Errors = {};
  if (fields.email) out.email = `E-mail: ${fields.email.replace(/^"?email"?\s*/i, '')}`;
  if (fields.password) out.password = `Password: ${fields.password.replace(/^"?password"?\s*/i, '')}`;
  if (fields.token) out.token = 'This link is not valid.';
  const code = error.envelope?.error.code;
  if (code === 'INVALID_CREDENTIALS') out.password = 'The e-mail or the password is not right.';
  else if (code === 'USER_ALREADY_EXISTS') out.email = 'An account with this e-mail already exists. Sign in instead.';
  else if (code === 'GONE' || code === 'TOKEN_EXPIRED') out.token = 'This link has expired or was already used.';
  else if (!Object.keys(out).length) out.form = messageOf(error);
  return out;
}

function useForm() {
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Errors>({});
  const [done, setDone] = useState(false);
  async function run(action: () => Promise<unknown>) {
    setBusy(true);
    setErrors({});
    try {
      await action();
      setDone(true);
    } catch (error) {
      setErrors(errorsOf(error));
    } finally {
      setBusy(false);
    }
  }
  return { busy, errors, done, run };
}

const value = (form: HTMLFormElement, name: string) => (form.elements.namedItem(name) as HTMLInputElement).value;

export function SignIn() {
  const { route, query } = useLocation();
  const cache = useQueryClient();
  const form = useForm();
  return (
    <section class="narrow">
      <h1>Sign in</h1>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          const target = event.currentTarget;
          void form.run(async () => {
            await unwrap(
              controlPlane.signIn({ body: { email: value(target, 'email'), password: value(target, 'password') } }),
            );
            await cache.invalidateQueries();
            route(query.next?.startsWith('/') ? query.next : '/');
          });
        }}
      >
        <Field label="E-mail" name="email" type="email" autoComplete="email" required error={form.errors.email} />
        <Field
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          error={form.errors.password}
        />
        {form.errors.form && <Notice kind="error">{form.errors.form}</Notice>}
        <Busy busy={form.busy} type="submit">
          Sign in
        </Busy>
      </form>
      <p>
        <a href="/forgot-password">Forgot your password?</a> · <a href="/sign-up">Create an account</a>
      </p>
    </section>
  );
}

export function SignUp() {
  const form = useForm();
  const cache = useQueryClient();
  const [email, setEmail] = useState('');
  return (
    <section class="narrow">
      <h1>Create your account</h1>
      {form.done ? (
        <>
          <Notice kind="success">
            Your account is ready. Check {email} for a link to verify your address. On a machine with no mail provider
            the e-mail is in the <a href="/dev-inbox">Dev inbox</a>.
          </Notice>
          <p>
            <a href="/">Continue to your organisations</a>
          </p>
        </>
      ) : (
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            const target = event.currentTarget;
            setEmail(value(target, 'email'));
            const email = value(target, 'email');
            void form.run(async () => {
              await unwrap(controlPlane.signUp({ body: { email, password: value(target, 'password') } }));
              // The account is signed in at once; the address is confirmed through the link of this e-mail.
              await unwrap(controlPlane.resendVerification({ body: { email } }));
              await cache.invalidateQueries();
            });
          }}
        >
          <Field label="E-mail" name="email" type="email" autoComplete="email" required error={form.errors.email} />
          <Field
            label="Password"
            name="password"
            type="password"
            autoComplete="new-password"
            required
            hint="At least 8 characters."
            error={form.errors.password}
          />
          {form.errors.form && <Notice kind="error">{form.errors.form}</Notice>}
          <Busy busy={form.busy} type="submit">
            Sign up
          </Busy>
        </form>
      )}
      <p>
        Already have an account? <a href="/sign-in">Sign in</a>
      </p>
    </section>
  );
}

export function VerifyEmail() {
  const { query } = useLocation();
  const form = useForm();
  return (
    <section class="narrow">
      <h1>Verify your e-mail</h1>
      {form.done ? (
        <Notice kind="success">
          Your address is verified. <a href="/sign-in">Sign in</a>
        </Notice>
      ) : (
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            const token = value(event.currentTarget, 'token');
            void form.run(() => unwrap(controlPlane.verifyEmail({ body: { token } })));
          }}
        >
          <Field label="Verification code" name="token" value={query.token ?? ''} required error={form.errors.token} />
          {form.errors.form && <Notice kind="error">{form.errors.form}</Notice>}
          <Busy busy={form.busy} type="submit">
            Verify
          </Busy>
        </form>
      )}
    </section>
  );
}

export function ForgotPassword() {
  const form = useForm();
  return (
    <section class="narrow">
      <h1>Reset your password</h1>
      {form.done ? (
        <Notice kind="success">
          If an account exists for that address, a reset link is on its way (on a machine with no mail provider: the{' '}
          <a href="/dev-inbox">Dev inbox</a>).
        </Notice>
      ) : (
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            const email = value(event.currentTarget, 'email');
            void form.run(() => unwrap(controlPlane.forgotPassword({ body: { email } })));
          }}
        >
          <Field label="E-mail" name="email" type="email" autoComplete="email" required error={form.errors.email} />
          {form.errors.form && <Notice kind="error">{form.errors.form}</Notice>}
          <Busy busy={form.busy} type="submit">
            Send reset link
          </Busy>
        </form>
      )}
    </section>
  );
}

export function ResetPassword() {
  const { query } = useLocation();
  const form = useForm();
  return (
    <section class="narrow">
      <h1>Choose a new password</h1>
      {form.done ? (
        <Notice kind="success">
          Your password is changed. <a href="/sign-in">Sign in</a>
        </Notice>
      ) : (
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            const target = event.currentTarget;
            void form.run(() =>
              unwrap(
                controlPlane.resetPassword({
                  body: { token: value(target, 'token'), password: value(target, 'password') },
                }),
              ),
            );
          }}
        >
          <Field label="Reset code" name="token" value={query.token ?? ''} required error={form.errors.token} />
          <Field
            label="New password"
            name="password"
            type="password"
            autoComplete="new-password"
            required
            error={form.errors.password}
          />
          {form.errors.form && <Notice kind="error">{form.errors.form}</Notice>}
          <Busy busy={form.busy} type="submit">
            Change password
          </Busy>
        </form>
      )}
    </section>
  );
}
