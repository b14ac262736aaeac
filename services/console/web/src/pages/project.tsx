/** Project home: keys, the six base URLs, ready-to-paste snippets, settings, rename and delete. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/preact-query';
import { useState } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import { controlPlane, unwrap, type Role, type Schemas } from '../api';
import { may } from '../roles';
import { useSite } from '../site';
import { Busy, CopyButton, Dialog, Field, messageOf, Notice, when } from '../ui';
import { SecretOnce } from './organisation';

type Path = { orgId: string; projectId: string };

export function Project() {
  const path = useRoute().params as Path;
  const org = useQuery({
    queryKey: ['organisation', path.orgId],
    queryFn: () => unwrap(controlPlane.getOrganisation({ params: { path: { orgId: path.orgId } } })),
  });
  const project = useQuery({
    queryKey: ['project', path.orgId, path.projectId],
    queryFn: () => unwrap(controlPlane.getProject({ params: { path } })),
    refetchInterval: (query) => (query.state.data?.status === 'deleting' ? 2000 : false),
  });
  if (project.error) return <Notice kind="error">{messageOf(project.error)}</Notice>;
  if (!project.data || !org.data) return <p>Loading…</p>;
  const role = org.data.role;
  return (
    <section>
      <p class="crumbs">
        <a href="/">Organisations</a> / <a href={`/orgs/${path.orgId}`}>{org.data.name}</a> / {project.data.name}
      </p>
      <h1>{project.data.name}</h1>
      {project.data.status !== 'active' ? (
        <Erasure project={project.data} />
      ) : (
        <>
          <nav aria-label="Project services" class="actions">
            <a href={`/orgs/${path.orgId}/projects/${path.projectId}/users`}>Users</a>
            <a href={`/orgs/${path.orgId}/projects/${path.projectId}/notifications`}>Notifications</a>
            <a href={`/orgs/${path.orgId}/projects/${path.projectId}/billing`}>Billing</a>
            <a href={`/orgs/${path.orgId}/projects/${path.projectId}/mailer`}>Mailer</a>
            <a href={`/orgs/${path.orgId}/projects/${path.projectId}/cms`}>CMS</a>
            <a href={`/orgs/${path.orgId}/projects/${path.projectId}/llm`}>LLM</a>
          </nav>
          {may(role).readKeys && <Keys path={path} role={role} />}
          <Endpoints path={path} />
          <ProjectSettings path={path} role={role} />
          {may(role).manageProjects && <Danger path={path} project={project.data} />}
        </>
      )}
    </section>
  );
}

function Erasure(props: { project: Schemas['Project'] }) {
  const services = Object.entries(props.project.erasure?.services ?? {});
  return (
    <section aria-labelledby="erasure-title">
      <h2 id="erasure-title">{props.project.erasure?.complete ? 'Project erased' : 'Erasing the project…'}</h2>
      <ul>
        {services.map(([service, at]) => (
          <li key={service}>
            {service}: {at ? `erased ${when(at)}` : 'waiting'}
          </li>
        ))}
      </ul>
    </section>
  );
}

function Keys(props: { path: Path; role?: Role }) {
  const cache = useQueryClient();
  const [shown, setShown] = useState<Schemas['IssuedKey']>();
  const [name, setName] = useState('');
  const keys = useQuery({
    queryKey: ['keys', props.path],
    queryFn: () => unwrap(controlPlane.listKeys({ params: { path: props.path } })),
  });
  const refresh = () => cache.invalidateQueries({ queryKey: ['keys', props.path] });
  const create = useMutation({
    mutationFn: () => unwrap(controlPlane.createKey({ params: { path: props.path }, body: { name } })),
    onSuccess: (key) => {
      setShown(key);
      setName('');
    },
    onSettled: refresh,
  });
  const rotate = useMutation({
    mutationFn: (keyId: string) =>
      unwrap(controlPlane.rotateKey({ params: { path: { ...props.path, keyId } }, body: {} })),
    onSuccess: (answer) => setShown(answer.key),
    onSettled: refresh,
  });
  const revoke = useMutation({
    mutationFn: (keyId: string) => unwrap(controlPlane.revokeKey({ params: { path: { ...props.path, keyId } } })),
    onSettled: refresh,
  });
  const manage = may(props.role).manageKeys;
  return (
    <section aria-labelledby="keys-title">
      <h2 id="keys-title">Keys</h2>
      {(keys.error || rotate.error || revoke.error) && (
        <Notice kind="error">{messageOf(keys.error ?? rotate.error ?? revoke.error)}</Notice>
      )}
      <table>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Public key</th>
            <th scope="col">Status</th>
            <th scope="col">Last used</th>
            {manage && <th scope="col">Actions</th>}
          </tr>
        </thead>
        <tbody>
          {keys.data?.keys.map((key) => (
            <tr key={key.id}>
              <td>{key.name}</td>
              <td>
                <code data-testid="public-key">{key.publicKey}</code> <CopyButton text={key.publicKey} label="Copy" />
              </td>
              <td>{key.status}</td>
              <td>{when(key.lastUsedAt)}</td>
              {manage && (
                <td>
                  {key.status === 'active' && (
                    <>
                      <button type="button" onClick={() => rotate.mutate(key.id)}>
                        Rotate {key.name}
                      </button>{' '}
                      <button type="button" onClick={() => revoke.mutate(key.id)}>
                        Revoke {key.name}
                      </button>
                    </>
                  )}
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
      {manage && (
        <form
          class="inline"
          onSubmit={(event) => {
            event.preventDefault();
            create.mutate();
          }}
        >
          <Field
            label="New key name"
            value={name}
            onInput={(event) => setName(event.currentTarget.value)}
            required
            error={create.error ? messageOf(create.error) : undefined}
          />
          <Busy busy={create.isPending} type="submit">
            Create key
          </Busy>
        </form>
      )}
      <Dialog title="New secret key" open={Boolean(shown)} onClose={() => setShown(undefined)}>
        {shown && <SecretOnce publicKey={shown.publicKey} secretKey={shown.secretKey} />}
        <button type="button" onClick={() => setShown(undefined)}>
          I have copied it
        </button>
      </Dialog>
    </section>
  );
}

function Endpoints(props: { path: Path }) {
  const site = useSite();
  const urls = site.data?.serviceUrls;
  if (!urls) return null;
  const { orgId, projectId } = props.path;
  const curl = `curl ${urls.notifications}/notifications \\
  -H 'x-api-key: <public key>' -H 'x-secret-key: <secret key>' \\
  -H 'x-tenant-id: ${orgId}' -H 'x-project-id: ${projectId}'`;
  const client = `import { createClient } from '@platform/client';

const platform = createClient({
  urls: ${JSON.stringify(urls, null, 2).replace(/\n/g, '\n  ')},
  keys: {
    apiKey: process.env.PLATFORM_API_KEY!,
    secretKey: process.env.PLATFORM_SECRET_KEY!,
    tenantId: '${orgId}',
    projectId: '${projectId}',
  },
});`;
  return (
    <section aria-labelledby="endpoints-title">
      <h2 id="endpoints-title">Services</h2>
      <dl class="pairs">
        <dt>Organisation (tenant) id</dt>
        <dd>
          <code>{orgId}</code>
        </dd>
        <dt>Project id</dt>
        <dd>
          <code>{projectId}</code>
        </dd>
        {Object.entries(urls).map(([name, url]) => (
          <>
            <dt key={`${name}-name`}>{name}</dt>
            <dd key={`${name}-url`}>
              <code>{url}</code>
            </dd>
          </>
        ))}
      </dl>
      <h3>curl</h3>
      <pre tabIndex={0}>{curl}</pre>
      <CopyButton text={curl} label="Copy curl" />
      <h3>@platform/client</h3>
      <pre tabIndex={0}>{client}</pre>
      <CopyButton text={client} label="Copy client snippet" />
    </section>
  );
}

function ProjectSettings(props: { path: Path; role?: Role }) {
  const cache = useQueryClient();
  const [key, setKey] = useState('');
  const [value, setValue] = useState('');
  const settings = useQuery({
    queryKey: ['settings', props.path],
    queryFn: () => unwrap(controlPlane.getSettings({ params: { path: props.path } })),
  });
  const update = useMutation({
    mutationFn: () => {
      let parsed: unknown = value;
      try {
        parsed = JSON.parse(value);
      } catch {
        // A plain word is a string setting.
      }
      return unwrap(controlPlane.updateSettings({ params: { path: props.path }, body: { [key]: parsed } }));
    },
    onSuccess: () => cache.invalidateQueries({ queryKey: ['settings', props.path] }),
  });
  const entries = Object.entries(settings.data?.settings ?? {});
  return (
    <section aria-labelledby="settings-title">
      <h2 id="settings-title">Project settings</h2>
      {settings.error && <Notice kind="error">{messageOf(settings.error)}</Notice>}
      {entries.length ? (
        <dl class="pairs">
          {entries.map(([name, current]) => (
            <>
              <dt key={`${name}-k`}>{name}</dt>
              <dd key={`${name}-v`}>
                <code>{JSON.stringify(current)}</code>
              </dd>
            </>
          ))}
        </dl>
      ) : (
        <p>No setting changed from its default.</p>
      )}
      {may(props.role).writeSettings && settings.data && (
        <form
          class="inline"
          onSubmit={(event) => {
            event.preventDefault();
            update.mutate();
          }}
        >
          <div class="field">
            <label for="setting-name">Setting</label>
            <select id="setting-name" value={key} onChange={(event) => setKey(event.currentTarget.value)} required>
              <option value="">Choose…</option>
              {settings.data.known.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
          </div>
          <Field
            label="Value (JSON or text)"
            value={value}
            onInput={(event) => setValue(event.currentTarget.value)}
            error={update.error ? messageOf(update.error) : undefined}
          />
          <Busy busy={update.isPending} type="submit" disabled={!key}>
            Save setting
          </Busy>
        </form>
      )}
    </section>
  );
}

function Danger(props: { path: Path; project: Schemas['Project'] }) {
  const cache = useQueryClient();
  const [name, setName] = useState(props.project.name);
  const [confirm, setConfirm] = useState('');
  const [asking, setAsking] = useState(false);
  const rename = useMutation({
    mutationFn: () => unwrap(controlPlane.renameProject({ params: { path: props.path }, body: { name } })),
    onSuccess: () => cache.invalidateQueries(),
  });
  const remove = useMutation({
    mutationFn: () => unwrap(controlPlane.deleteProject({ params: { path: props.path } })),
    onSuccess: async () => {
      setAsking(false);
      await cache.invalidateQueries();
    },
  });
  return (
    <section aria-labelledby="project-admin-title">
      <h2 id="project-admin-title">Rename or delete</h2>
      <form
        class="inline"
        onSubmit={(event) => {
          event.preventDefault();
          rename.mutate();
        }}
      >
        <Field
          label="Project name"
          value={name}
          onInput={(event) => setName(event.currentTarget.value)}
          error={rename.error ? messageOf(rename.error) : undefined}
        />
        <Busy busy={rename.isPending} type="submit">
          Rename project
        </Busy>
      </form>
      <button type="button" class="danger" onClick={() => setAsking(true)}>
        Delete project…
      </button>
      <Dialog title="Delete this project?" open={asking} onClose={() => setAsking(false)}>
        <p>Its keys stop working at once and every service erases its data. This cannot be undone.</p>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            remove.mutate();
          }}
        >
          <Field
            label={`Type ${props.project.name} to confirm`}
            value={confirm}
            onInput={(event) => setConfirm(event.currentTarget.value)}
            error={remove.error ? messageOf(remove.error) : undefined}
          />
          <Busy busy={remove.isPending} type="submit" class="danger" disabled={confirm !== props.project.name}>
            Delete project
          </Busy>{' '}
          <button type="button" onClick={() => setAsking(false)}>
            Cancel
          </button>
        </form>
      </Dialog>
    </section>
  );
}
