/** Vendor credentials of a project: which vendors are set, set or replace a key, test a typed or the stored key. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/preact-query';
import { useState } from 'preact/hooks';
import { CallFailed, unwrap } from '../../api';
import { Busy, Field, messageOf, Notice, Select, when } from '../../ui';
import type { LlmProject, LlmSchemas } from './llm-frame';

type Vendor = LlmSchemas['ProviderTestResult']['providerType'];
const VENDORS: readonly Vendor[] = ['openai', 'anthropic'];
const VENDOR_NAMES: Record<Vendor, string> = { openai: 'OpenAI', anthropic: 'Anthropic' };

export function Credentials(props: { project: LlmProject }) {
  const { client, projectId, canWrite } = props.project;
  const providers = useQuery({
    queryKey: ['llm-providers', projectId],
    queryFn: () => unwrap(client.getProviders()),
  });
  // A stored key is tested by the service with what it holds; the page never sees it.
  const testStored = useMutation({
    mutationFn: (providerType: Vendor) => unwrap(client.postProvidersTest({ body: { providerType } })),
  });
  const rows = providers.data?.providers ?? [];
  return (
    <section aria-labelledby="credentials-title">
      <h2 id="credentials-title">Vendor credentials</h2>
      {providers.error && <Notice kind="error">{messageOf(providers.error)}</Notice>}
      {providers.isLoading && <p role="status">Loading…</p>}
      {providers.data && !rows.length && <p>No vendor key is set yet: the project cannot make completions.</p>}
      {rows.length > 0 && (
        <table tabIndex={0}>
          <thead>
            <tr>
              <th scope="col">Vendor</th>
              <th scope="col">Key</th>
              <th scope="col">Set</th>
              {canWrite && <th scope="col">Check</th>}
            </tr>
          </thead>
          <tbody>
            {rows.map((provider) => (
              <tr key={provider.id}>
                <td>{VENDOR_NAMES[provider.providerType]}</td>
                <td>{provider.configured ? 'stored, encrypted' : 'not set'}</td>
                <td>{when(provider.createdAt)}</td>
                {canWrite && (
                  <td>
                    <Busy
                      busy={testStored.isPending && testStored.variables === provider.providerType}
                      type="button"
                      onClick={() => testStored.mutate(provider.providerType)}
                    >
                      Test stored {VENDOR_NAMES[provider.providerType]} key
                    </Busy>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <TestOutcome result={testStored.data} error={testStored.error} />
      {canWrite && <CredentialForm project={props.project} />}
    </section>
  );
}

function CredentialForm(props: { project: LlmProject }) {
  const { client, projectId } = props.project;
  const cache = useQueryClient();
  const [vendor, setVendor] = useState<Vendor>('openai');
  // The key lives only in this field until sent: never read back, never kept in storage.
  const [apiKey, setApiKey] = useState('');
  const [organizationId, setOrganizationId] = useState('');
  const input = () => ({
    providerType: vendor,
    apiKey: apiKey.trim(),
    ...(vendor === 'openai' && organizationId.trim() ? { organizationId: organizationId.trim() } : {}),
  });
  const save = useMutation({
    mutationFn: () => unwrap(client.postProviders({ body: input() })),
    onSuccess: () => {
      setApiKey('');
      setOrganizationId('');
      return cache.invalidateQueries({ queryKey: ['llm-providers', projectId] });
    },
  });
  const test = useMutation({
    mutationFn: () => unwrap(client.postProvidersTest({ body: input() })),
  });
  const failed = save.error ?? test.error;
  const fields = failed instanceof CallFailed ? failed.fieldMessages : {};
  const busy = save.isPending || test.isPending;
  return (
    <form
      class="card"
      aria-labelledby="set-key-title"
      autoComplete="off"
      onSubmit={(event) => {
        event.preventDefault();
        test.reset();
        save.mutate();
      }}
    >
      <h3 id="set-key-title">Set a vendor key</h3>
      <div class="inline">
        <Select
          label="Vendor"
          value={vendor}
          options={VENDORS}
          onChange={(value) => {
            setVendor(value as Vendor);
            save.reset();
            test.reset();
          }}
        />
        <Field
          label={`${VENDOR_NAMES[vendor]} API key`}
          type="password"
          autoComplete="off"
          required
          value={apiKey}
          onInput={(event) => setApiKey(event.currentTarget.value)}
          error={fields.apiKey ?? (failed && !Object.keys(fields).length ? messageOf(failed) : undefined)}
          hint="Stored encrypted by the LLM service; it is never shown again."
        />
        {vendor === 'openai' && (
          <Field
            label="OpenAI organisation id (optional)"
            autoComplete="off"
            value={organizationId}
            onInput={(event) => setOrganizationId(event.currentTarget.value)}
            error={fields.organizationId}
          />
        )}
      </div>
      <div class="actions">
        <Busy busy={save.isPending} disabled={busy} type="submit">
          Save key
        </Busy>
        <Busy
          busy={test.isPending}
          disabled={busy || !apiKey.trim()}
          type="button"
          onClick={() => {
            save.reset();
            test.mutate();
          }}
        >
          Test this key
        </Busy>
      </div>
      {save.isSuccess && (
        <Notice kind="success">{VENDOR_NAMES[vendor]} key saved. It is stored encrypted and never shown again.</Notice>
      )}
      <TestOutcome result={test.data} />
    </form>
  );
}

/** A vendor's answer to a key test, in words. */
function TestOutcome(props: { result?: LlmSchemas['ProviderTestResult']; error?: unknown }) {
  if (props.error) return <Notice kind="error">{messageOf(props.error)}</Notice>;
  if (!props.result) return null;
  const vendor = VENDOR_NAMES[props.result.providerType];
  return props.result.success ? (
    <Notice kind="success">
      {vendor}: {props.result.message}.
    </Notice>
  ) : (
    <Notice kind="error">
      {vendor} refused the key: {props.result.message}
    </Notice>
  );
}
