/** One organisation: its projects, members and invitations, audit log and settings, by role. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/preact-query';
import { useState } from 'preact/hooks';
import { useLocation, useRoute } from 'preact-iso';
import { controlPlane, unwrap, type Role, type Schemas } from '../api';
import { may, ROLES } from '../roles';
import { Busy, CopyButton, Dialog, Field, messageOf, Notice, Pager, Select, useCursorPages, when } from '../ui';

export function Organisation() {
  const { orgId } = useRoute().params as { orgId: string };
  const org = useQuery({
    queryKey: ['organisation', orgId],
    queryFn: () => unwrap(controlPlane.getOrganisation({ params: { path: { orgId } } })),
  });
  if (org.error) return <Notice kind="error">{messageOf(org.error)}</Notice>;
  if (!org.data) return <p>Loading…</p>;
  const role = org.data.role;
  const can = may(role);
  return (
    <section>
      <p class="crumbs">
        <a href="/">Organisations</a> / {org.data.name}
      </p>
      <h1>
        {org.data.name} <span class="badge">{role}</span>
      </h1>
      {org.data.suspended && <Notice kind="error">Suspended: {org.data.suspensionReason ?? 'no reason given'}</Notice>}
      <Projects orgId={orgId} role={role} />
      <Members orgId={orgId} role={role} />
      {can.manageMembers && <Invitations orgId={orgId} />}
      {can.readAudit && <Audit orgId={orgId} />}
      {can.renameOrganisation && <OrganisationSettings org={org.data} />}
    </section>
  );
}

function Projects(props: { orgId: string; role?: Role }) {
  const cache = useQueryClient();
  const [name, setName] = useState('');
  const [created, setCreated] = useState<Schemas['CreatedProject']>();
  const projects = useQuery({
    queryKey: ['projects', props.orgId],
    queryFn: () => unwrap(controlPlane.listProjects({ params: { path: { orgId: props.orgId } } })),
  });
  const create = useMutation({
    mutationFn: () => unwrap(controlPlane.createProject({ params: { path: { orgId: props.orgId } }, body: { name } })),
    onSuccess: async (project) => {
      setCreated(project as Schemas['CreatedProject']);
      setName('');
      await cache.invalidateQueries({ queryKey: ['projects', props.orgId] });
    },
  });
  return (
    <section aria-labelledby="projects-title">
      <h2 id="projects-title">Projects</h2>
      {projects.error && <Notice kind="error">{messageOf(projects.error)}</Notice>}
      <ul class="cards">
        {projects.data?.projects.map((project) => (
          <li key={project.id}>
            <a href={`/orgs/${props.orgId}/projects/${project.id}`}>{project.name}</a>{' '}
            {project.status !== 'active' && <span class="badge danger">{project.status}</span>}
          </li>
        ))}
      </ul>
      {projects.data?.projects.length === 0 && <p>No project yet.</p>}
      {may(props.role).manageProjects && (
        <form
          class="inline"
          onSubmit={(event) => {
            event.preventDefault();
            create.mutate();
          }}
        >
          <Field
            label="New project name"
            value={name}
            onInput={(event) => setName(event.currentTarget.value)}
            required
            error={create.error ? messageOf(create.error) : undefined}
          />
          <Busy busy={create.isPending} type="submit">
            Create project
          </Busy>
        </form>
      )}
      <Dialog title="Project created" open={Boolean(created)} onClose={() => setCreated(undefined)}>
        {created && <SecretOnce publicKey={created.key.publicKey} secretKey={created.key.secretKey} />}
        <p>
          <a href={created ? `/orgs/${props.orgId}/projects/${created.id}` : '#'}>Open {created?.name}</a>
        </p>
        <button type="button" onClick={() => setCreated(undefined)}>
          Close
        </button>
      </Dialog>
    </section>
  );
}

/** A new secret key, shown this once: the page keeps it only while the dialog is open. */
export function SecretOnce(props: { publicKey: string; secretKey: string }) {
  return (
    <div>
      <Notice kind="info">Copy the secret key now: it is shown only this once and cannot be read again.</Notice>
      <dl>
        <dt>Public key</dt>
        <dd>
          <code>{props.publicKey}</code>
        </dd>
        <dt>Secret key</dt>
        <dd>
          <code data-testid="secret-key">{props.secretKey}</code>{' '}
          <CopyButton text={props.secretKey} label="Copy secret key" />
        </dd>
      </dl>
    </div>
  );
}

function Members(props: { orgId: string; role?: Role }) {
  const cache = useQueryClient();
  const can = may(props.role);
  const members = useQuery({
    queryKey: ['members', props.orgId],
    queryFn: () => unwrap(controlPlane.listMembers({ params: { path: { orgId: props.orgId } } })),
  });
  const change = useMutation({
    mutationFn: (input: { userId: string; role: Role }) =>
      unwrap(
        controlPlane.changeMemberRole({
          params: { path: { orgId: props.orgId, userId: input.userId } },
          body: { role: input.role },
        }),
      ),
    onSettled: () => cache.invalidateQueries({ queryKey: ['members', props.orgId] }),
  });
  const remove = useMutation({
    mutationFn: (userId: string) =>
      unwrap(controlPlane.removeMember({ params: { path: { orgId: props.orgId, userId } } })),
    onSettled: () => cache.invalidateQueries({ queryKey: ['members', props.orgId] }),
  });
  return (
    <section aria-labelledby="members-title">
      <h2 id="members-title">Members</h2>
      {(members.error || change.error || remove.error) && (
        <Notice kind="error">{messageOf(members.error ?? change.error ?? remove.error)}</Notice>
      )}
      <table>
        <thead>
          <tr>
            <th scope="col">E-mail</th>
            <th scope="col">Role</th>
            <th scope="col">Joined</th>
            {can.manageMembers && <th scope="col">Actions</th>}
          </tr>
        </thead>
        <tbody>
          {members.data?.members.map((member) => (
            <tr key={member.userId}>
              <td>{member.email}</td>
              <td>
                {can.manageMembers ? (
                  <Select
                    label={`Role of ${member.email}`}
                    value={member.role}
                    options={ROLES}
                    onChange={(role) => change.mutate({ userId: member.userId, role: role as Role })}
                  />
                ) : (
                  member.role
                )}
              </td>
              <td>{when(member.joinedAt)}</td>
              {can.manageMembers && (
                <td>
                  <button type="button" onClick={() => remove.mutate(member.userId)}>
                    Remove {member.email}
                  </button>
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function Invitations(props: { orgId: string }) {
  const cache = useQueryClient();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('developer');
  const invitations = useQuery({
    queryKey: ['invitations', props.orgId],
    queryFn: () => unwrap(controlPlane.listInvitations({ params: { path: { orgId: props.orgId } } })),
  });
  const refresh = () => cache.invalidateQueries({ queryKey: ['invitations', props.orgId] });
  const invite = useMutation({
    mutationFn: (input: { email: string; role: Role }) =>
      unwrap(controlPlane.inviteMember({ params: { path: { orgId: props.orgId } }, body: input })),
    onSuccess: () => setEmail(''),
    onSettled: refresh,
  });
  const revoke = useMutation({
    mutationFn: (invitationId: string) =>
      unwrap(controlPlane.revokeInvitation({ params: { path: { orgId: props.orgId, invitationId } } })),
    onSettled: refresh,
  });
  // Resending is a fresh invitation (a new single-use link) in place of the old one.
  const resend = useMutation({
    mutationFn: async (invitation: Schemas['Invitation']) => {
      await unwrap(
        controlPlane.revokeInvitation({ params: { path: { orgId: props.orgId, invitationId: invitation.id } } }),
      );
      await unwrap(
        controlPlane.inviteMember({
          params: { path: { orgId: props.orgId } },
          body: { email: invitation.email, role: invitation.role },
        }),
      );
    },
    onSettled: refresh,
  });
  const pending = invitations.data?.invitations.filter((invitation) => invitation.status === 'pending') ?? [];
  return (
    <section aria-labelledby="invitations-title">
      <h2 id="invitations-title">Invitations</h2>
      <form
        class="inline"
        onSubmit={(event) => {
          event.preventDefault();
          invite.mutate({ email, role });
        }}
      >
        <Field
          label="Invite by e-mail"
          type="email"
          value={email}
          onInput={(event) => setEmail(event.currentTarget.value)}
          required
          error={invite.error ? messageOf(invite.error) : undefined}
        />
        <Select label="Role" value={role} options={ROLES} onChange={(value) => setRole(value as Role)} />
        <Busy busy={invite.isPending} type="submit">
          Send invitation
        </Busy>
      </form>
      {invite.isSuccess && <Notice kind="success">Invitation sent.</Notice>}
      {(revoke.error || resend.error) && <Notice kind="error">{messageOf(revoke.error ?? resend.error)}</Notice>}
      {pending.length > 0 && (
        <table>
          <thead>
            <tr>
              <th scope="col">E-mail</th>
              <th scope="col">Role</th>
              <th scope="col">Expires</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {pending.map((invitation) => (
              <tr key={invitation.id}>
                <td>{invitation.email}</td>
                <td>{invitation.role}</td>
                <td>{when(invitation.expiresAt)}</td>
                <td>
                  <button type="button" onClick={() => resend.mutate(invitation)}>
                    Resend
                  </button>{' '}
                  <button type="button" onClick={() => revoke.mutate(invitation.id)}>
                    Revoke
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function Audit(props: { orgId: string }) {
  const [filters, setFilters] = useState({ action: '', actor: '', from: '', to: '' });
  const pages = useCursorPages();
  const query = {
    ...(filters.action ? { action: filters.action } : {}),
    ...(filters.actor ? { actor: filters.actor } : {}),
    ...(filters.from ? { from: new Date(filters.from).toISOString() } : {}),
    ...(filters.to ? { to: new Date(filters.to).toISOString() } : {}),
  };
  const { cursor } = pages;
  const audit = useQuery({
    queryKey: ['audit', props.orgId, query, cursor],
    queryFn: () =>
      unwrap(
        controlPlane.listAuditEntries({
          params: { path: { orgId: props.orgId }, query: { ...query, limit: 25, ...(cursor ? { cursor } : {}) } },
        }),
      ),
  });
  const exportFrom = filters.from ? new Date(filters.from) : new Date(Date.now() - 30 * 86_400_000);
  const exportTo = filters.to ? new Date(filters.to) : new Date();
  const set = (name: keyof typeof filters) => (event: { currentTarget: HTMLInputElement }) => {
    setFilters({ ...filters, [name]: event.currentTarget.value });
    pages.restart();
  };
  return (
    <section aria-labelledby="audit-title">
      <h2 id="audit-title">Audit log</h2>
      <div class="inline">
        <Field label="Action" value={filters.action} onChange={set('action')} placeholder="project.create" />
        <Field label="Actor (user id)" value={filters.actor} onChange={set('actor')} />
        <Field label="From" type="datetime-local" value={filters.from} onChange={set('from')} />
        <Field label="To" type="datetime-local" value={filters.to} onChange={set('to')} />
      </div>
      <p>
        <a
          class="button"
          download="audit.ndjson"
          href={`/api/console/v1/organisations/${props.orgId}/audit/export?from=${encodeURIComponent(exportFrom.toISOString())}&to=${encodeURIComponent(exportTo.toISOString())}`}
        >
          Export (NDJSON)
        </a>
      </p>
      {audit.error && <Notice kind="error">{messageOf(audit.error)}</Notice>}
      <table>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Who</th>
            <th scope="col">Action</th>
            <th scope="col">Target</th>
            <th scope="col">Outcome</th>
          </tr>
        </thead>
        <tbody>
          {audit.data?.entries.map((entry) => (
            <tr key={entry.id}>
              <td>{when(entry.at)}</td>
              <td>{entry.actor.email ?? entry.source}</td>
              <td>{entry.action}</td>
              <td>{entry.target ?? '—'}</td>
              <td>{entry.outcome}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <Pager label="the audit log" {...pages.moves(audit.data?.nextCursor)} />
    </section>
  );
}

function OrganisationSettings(props: { org: Schemas['Organisation'] }) {
  const cache = useQueryClient();
  const { route } = useLocation();
  const [name, setName] = useState(props.org.name);
  const [confirm, setConfirm] = useState('');
  const rename = useMutation({
    mutationFn: () =>
      unwrap(controlPlane.renameOrganisation({ params: { path: { orgId: props.org.id } }, body: { name } })),
    onSuccess: () => cache.invalidateQueries(),
  });
  const remove = useMutation({
    mutationFn: () => unwrap(controlPlane.deleteOrganisation({ params: { path: { orgId: props.org.id } } })),
    onSuccess: async () => {
      await cache.invalidateQueries();
      route('/');
    },
  });
  return (
    <section aria-labelledby="org-settings-title">
      <h2 id="org-settings-title">Organisation settings</h2>
      <form
        class="inline"
        onSubmit={(event) => {
          event.preventDefault();
          rename.mutate();
        }}
      >
        <Field
          label="Organisation name"
          value={name}
          onInput={(event) => setName(event.currentTarget.value)}
          error={rename.error ? messageOf(rename.error) : undefined}
        />
        <Busy busy={rename.isPending} type="submit">
          Rename
        </Busy>
      </form>
      {rename.isSuccess && <Notice kind="success">Renamed.</Notice>}
      <form
        class="danger-zone"
        onSubmit={(event) => {
          event.preventDefault();
          remove.mutate();
        }}
      >
        <Field
          label={`Type ${props.org.name} to delete the organisation and all its projects`}
          value={confirm}
          onInput={(event) => setConfirm(event.currentTarget.value)}
          error={remove.error ? messageOf(remove.error) : undefined}
        />
        <Busy busy={remove.isPending} type="submit" class="danger" disabled={confirm !== props.org.name}>
          Delete organisation
        </Busy>
      </form>
    </section>
  );
}
