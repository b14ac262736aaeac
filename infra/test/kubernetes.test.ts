import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { IDeployment } from 'kubernetes-models/apps/v1';
import type { IHorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import type { IJob } from 'kubernetes-models/batch/v1';
import type { IIngress, INetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import type { IPodDisruptionBudget } from 'kubernetes-models/policy/v1';
import type { IConfigMap, ISecret, IService } from 'kubernetes-models/v1';
import { kubernetesSchemaError } from './support/k8s-schema';
import { CONSOLE, K8S_DIR, OVERLAYS, overlayDir, SERVICE_NAMES, SERVICES } from './support/paths';
import { loadServiceConfig } from './support/service-config';
import { kustomize, readYamlDocuments, type Manifest } from './support/stock-tools';

type PodTemplate = NonNullable<IDeployment['spec']>['template'];

const SECRET_TEMPLATES: ISecret[] = readdirSync(path.join(K8S_DIR, 'secrets'))
  .filter((f) => f.endsWith('.yaml'))
  .flatMap((f) => readYamlDocuments(path.join(K8S_DIR, 'secrets', f)) as ISecret[]);

const EXPECTED = {
  dev: { namespace: 'platform-dev', registry: 'localhost:5001/platform/', minReplicas: 1 },
  prod: { namespace: 'platform', registry: 'registry.example.com/platform/', minReplicas: 3 },
} as const;

const WORKLOADS = [...SERVICE_NAMES, 'llm-worker'];

/** Every test below reads an overlay as `kubectl kustomize` renders it. */
function overlayTests(): void {
  describe.each(OVERLAYS)('k8s overlay %s', (overlay) => {
    const manifests = kustomize(overlayDir(overlay));
    const expected = EXPECTED[overlay];
    const all = <T>(kind: string) => manifests.filter((m) => m.kind === kind) as unknown as (T & Manifest)[];
    const one = <T>(kind: string, name: string): T & Manifest => {
      const found = all<T>(kind).find((m) => m.metadata.name === name);
      if (!found) throw new Error(`${kind}/${name} is not in the ${overlay} overlay`);
      return found;
    };
    const deployments = all<IDeployment>('Deployment');
    const platformConfig = one<IConfigMap>('ConfigMap', 'platform-config');
    const configMaps = new Map(all<IConfigMap>('ConfigMap').map((c) => [c.metadata.name, c.data ?? {}]));
    /** A workload's settings from its ConfigMaps and literal env (not its Secrets). */
    const envOf = (name: string) => {
      const [container] = one<IDeployment>('Deployment', name).spec!.template.spec!.containers;
      const env: Record<string, string | undefined> = {};
      for (const source of container.envFrom ?? [])
        if (source.configMapRef) Object.assign(env, configMaps.get(source.configMapRef.name ?? ''));
      for (const variable of container.env ?? []) if (variable.value !== undefined) env[variable.name] = variable.value;
      return env;
    };

    test('when every rendered manifest is validated against the Kubernetes schemas, then none has an error', () => {
      expect(manifests.length).toBeGreaterThan(40);
      expect(manifests.map(kubernetesSchemaError).filter(Boolean)).toEqual([]);
    });

    test('when a manifest breaks the schema, then the validation reports it (the check can fail)', () => {
      const broken = structuredClone(one<IDeployment>('Deployment', 'auth'));
      (broken.spec!.template.spec!.containers[0].ports![0] as { containerPort: unknown }).containerPort = 'http';
      expect(kubernetesSchemaError(broken)).toMatch(/containerPort/);
    });

    test('when rendered, then everything is in the overlay namespace, with no Secret and no database or broker of its own', () => {
      for (const m of manifests)
        expect(`${m.kind}/${m.metadata.name} in ${m.metadata.namespace}`).toBe(
          `${m.kind}/${m.metadata.name} in ${expected.namespace}`,
        );
      const kinds = new Set(manifests.map((m) => m.kind));
      expect(kinds.has('Secret')).toBe(false);
      expect(kinds.has('StatefulSet')).toBe(false);
    });

    test('when rendered, then there is one Deployment per service plus the LLM worker and the console', () => {
      expect(deployments.map((d) => d.metadata.name).sort()).toEqual([...WORKLOADS, CONSOLE.name].sort());
    });

    test('when the console is deployed, then on port 4000 with its own login, the signing key and a way to Authentication only', () => {
      const container = one<IDeployment>('Deployment', CONSOLE.name).spec!.template.spec!.containers[0];
      expect(container.ports?.find((p) => p.name === 'http')?.containerPort).toBe(CONSOLE.port);
      const refOf = (name: string) => container.env?.find((e) => e.name === name)?.valueFrom?.secretKeyRef;
      expect(refOf('DATABASE_URL')).toEqual({ name: 'console-database', key: 'uri' });
      expect(refOf('PLATFORM_DATABASE_URL')).toEqual({ name: 'console-database', key: 'platform-uri' });
      expect(refOf('JWT_PRIVATE_KEY')).toEqual({ name: 'auth-jwt-signing', key: 'JWT_PRIVATE_KEY' });
      expect(one<IConfigMap>('ConfigMap', 'console-config').data?.CONSOLE_AUTH_URL).toBe('http://auth:4001/v1');
      const job = one<IJob>('Job', 'console-migrate');
      expect(job.spec!.template.spec!.containers[0].args).toContain('--platform-writer');
      const policy = one<INetworkPolicy>('NetworkPolicy', CONSOLE.name);
      const web = (policy.spec?.egress ?? []).flatMap((r) => (r.ports ?? []).map((p) => Number(p.port)));
      expect(web.filter((port) => port === 80 || port === 443)).toEqual([]);
      expect(policy.spec?.egress?.find((r) => r.to?.length)).toEqual({
        to: [{ podSelector: { matchLabels: { 'app.kubernetes.io/name': 'auth' } } }],
        ports: [{ port: 4001, protocol: 'TCP' }],
      });
    });

    describe.each(WORKLOADS)('Deployment %s', (name) => {
      const service = (name === 'llm-worker' ? 'llm' : name) as keyof typeof SERVICES;
      const deployment = one<IDeployment>('Deployment', name);
      const template = deployment.spec!.template as PodTemplate;
      const pod = template.spec!;
      const [container] = pod.containers;
      const podLabels = template.metadata?.labels ?? {};

      test('when it is scheduled, then it runs one container of its service image, pinned to a tag', () => {
        expect(pod.containers).toHaveLength(1);
        expect(container.image).toMatch(new RegExp(`^${expected.registry.replace(/\./g, '\\.')}${service}:[\\w.-]+$`));
        expect(container.image).not.toMatch(/:latest$/);
        expect(container.command).toEqual(['node', 'dist/main.js']);
      });

      test('when it runs, then it runs as a non-root user with a read-only root filesystem and no privileges', () => {
        expect(pod.securityContext?.runAsNonRoot).toBe(true);
        expect(pod.securityContext?.runAsUser).toBeGreaterThan(0);
        expect(pod.automountServiceAccountToken).toBe(false);
        expect(container.securityContext).toMatchObject({
          allowPrivilegeEscalation: false,
          readOnlyRootFilesystem: true,
          capabilities: { drop: ['ALL'] },
        });
        // the only writable path is an emptyDir
        for (const mount of container.volumeMounts ?? []) {
          expect(pod.volumes?.find((v) => v.name === mount.name)?.emptyDir).toBeDefined();
        }
      });

      test('when it is probed, then readiness asks /readyz and liveness /healthz on its declared port', () => {
        const port = container.ports?.find((p) => p.name === 'http');
        expect(port?.containerPort).toBe(SERVICES[service]);
        expect(container.readinessProbe?.httpGet).toEqual({ path: '/readyz', port: 'http' });
        expect(container.livenessProbe?.httpGet).toEqual({ path: '/healthz', port: 'http' });
        expect(container.env?.find((e) => e.name === 'PORT')?.value).toBe(String(SERVICES[service]));
      });

      test('when it is stopped, then the grace period outlasts the preStop pause plus the drain time', () => {
        const drainSeconds = Number(platformConfig.data?.SHUTDOWN_DRAIN_MS) / 1000;
        expect(drainSeconds).toBeGreaterThan(0);
        const preStop = container.lifecycle?.preStop?.exec?.command ?? [];
        expect(preStop[0]).toBe('sleep');
        const pauseSeconds = Number(preStop[1]);
        expect(pauseSeconds).toBeGreaterThan(0);
        expect(pod.terminationGracePeriodSeconds).toBeGreaterThan(pauseSeconds + drainSeconds);
      });

      test('when it is scheduled, then CPU and memory requests and limits are set, requests within limits', () => {
        const { requests, limits } = container.resources ?? {};
        for (const key of ['cpu', 'memory'] as const) {
          expect(requests?.[key]).toBeDefined();
          expect(limits?.[key]).toBeDefined();
        }
        const bytes = (q: string | number | undefined) => {
          const m = /^(\d+)(Mi|Gi)$/.exec(String(q));
          if (!m) throw new Error(`memory quantity ${q} not in Mi/Gi`);
          return Number(m[1]) * (m[2] === 'Gi' ? 1024 : 1);
        };
        expect(bytes(requests?.memory)).toBeLessThanOrEqual(bytes(limits?.memory));
      });

      test('when the service reads its ConfigMaps and env, then its configuration loads, in production mode on its port', () => {
        const { platform } = loadServiceConfig(service, envOf(name));
        expect(platform.production).toBe(true);
        expect(platform.port).toBe(SERVICES[service]);
      });

      test('when it reads its configuration, then every ConfigMap and Secret it names exists or has a template', () => {
        const configMaps = new Set(all<IConfigMap>('ConfigMap').map((c) => c.metadata.name));
        for (const source of container.envFrom ?? []) {
          if (source.configMapRef) expect(configMaps).toContain(source.configMapRef.name);
          if (source.secretRef) expect(SECRET_TEMPLATES.map((s) => s.metadata?.name)).toContain(source.secretRef.name);
        }
        for (const variable of container.env ?? []) {
          const ref = variable.valueFrom?.secretKeyRef;
          if (!ref) continue;
          const template = SECRET_TEMPLATES.find((s) => s.metadata?.name === ref.name);
          expect(template ? Object.keys(template.stringData ?? {}) : [`no template for ${ref.name}`]).toContain(
            ref.key,
          );
        }
        const refOf = (name: string) => container.env?.find((e) => e.name === name)?.valueFrom?.secretKeyRef;
        expect(refOf('DATABASE_URL')).toEqual({ name: `${service}-database`, key: 'uri' });
        expect(refOf('PLATFORM_DATABASE_URL')).toEqual({ name: `${service}-database`, key: 'platform-uri' });
        const signsTokens = container.env?.some((e) => e.name === 'JWT_PRIVATE_KEY');
        expect(signsTokens).toBe(name === 'auth');
      });

      test('when it runs, then a Service, an autoscaling/v2 HPA and a policy/v1 PDB cover its pods', () => {
        const selector = deployment.spec!.selector.matchLabels ?? {};
        expect(podLabels).toMatchObject(selector);

        const svc = one<IService>('Service', name);
        expect(podLabels).toMatchObject(svc.spec?.selector ?? { missing: 'selector' });
        const targetPort = svc.spec?.ports?.[0]?.targetPort;
        expect(container.ports?.map((p) => p.name)).toContain(targetPort);

        const hpa = one<IHorizontalPodAutoscaler>('HorizontalPodAutoscaler', name);
        expect(hpa.apiVersion).toBe('autoscaling/v2');
        expect(hpa.spec?.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name });
        expect(hpa.spec?.minReplicas).toBe(expected.minReplicas);
        expect(hpa.spec!.maxReplicas).toBeGreaterThan(hpa.spec!.minReplicas!);
        // the HPA owns the replica count: a fixed one would be reset on every apply
        expect(deployment.spec?.replicas).toBeUndefined();

        const pdb = one<IPodDisruptionBudget>('PodDisruptionBudget', name);
        expect(pdb.apiVersion).toBe('policy/v1');
        expect(podLabels).toMatchObject(pdb.spec?.selector?.matchLabels ?? { missing: 'selector' });
        expect(pdb.spec?.maxUnavailable).toBe(1);
      });
    });

    test('when the LLM worker runs, then it is the llm image with LLM_ROLE=worker and the API has LLM_ROLE=api', () => {
      const worker = one<IDeployment>('Deployment', 'llm-worker').spec!.template.spec!.containers[0];
      const api = one<IDeployment>('Deployment', 'llm').spec!.template.spec!.containers[0];
      expect(worker.image).toBe(api.image);
      // as the llm service reads its settings (an unknown role fails its configuration)
      expect(loadServiceConfig('llm', envOf('llm-worker')).service.role).toBe('worker');
      expect(loadServiceConfig('llm', envOf('llm')).service.role).toBe('api');
    });
    test.each(SERVICE_NAMES)(
      'when %s is deployed, then a migration Job runs `node dist/migrate.js` of its image as the owner, then grants its own login',
      (name) => {
        const job = one<IJob>('Job', `${name}-migrate`);
        const pod = job.spec!.template.spec!;
        const [migrate] = pod.initContainers ?? [];
        const [grant, ...others] = pod.containers;
        const apiImage = one<IDeployment>('Deployment', name).spec!.template.spec!.containers[0].image;
        const refOf = (container: typeof grant, variable: string) =>
          container.env?.find((e) => e.name === variable)?.valueFrom?.secretKeyRef;
        expect(others).toEqual([]);
        expect(pod.initContainers).toHaveLength(1);
        // the init container finishes before the grant starts: migrations, then the login
        expect(migrate.command).toEqual(['node', 'dist/migrate.js']);
        expect(migrate.image).toBe(apiImage);
        expect(refOf(migrate, 'DATABASE_URL')).toEqual({ name: 'database-owner', key: name });
        expect(grant.image).toMatch(new RegExp(`^${expected.registry.replace(/\./g, '\\.')}admin:`));
        expect(grant.args).toEqual([
          'grant-service-role',
          '--service',
          name,
          '--role',
          '$(SERVICE_DB_USER)',
          '--password-env',
          'SERVICE_DB_PASSWORD',
          '--json',
        ]);
        expect(refOf(grant, 'PLATFORM_DATABASE_URL')).toEqual({ name: 'database-owner', key: 'platform' });
        // the login the Deployment connects with (its Secret's uri and platform-uri)
        expect(refOf(grant, 'SERVICE_DB_USER')).toEqual({ name: `${name}-database`, key: 'username' });
        expect(refOf(grant, 'SERVICE_DB_PASSWORD')).toEqual({ name: `${name}-database`, key: 'password' });
        expect(pod.restartPolicy).toBe('Never');
        expect(pod.securityContext?.runAsNonRoot).toBe(true);
        for (const container of [migrate, grant]) expect(container.securityContext?.readOnlyRootFilesystem).toBe(true);
        expect(job.spec?.backoffLimit).toBeGreaterThan(0);
        expect(job.spec?.ttlSecondsAfterFinished).toBeGreaterThan(0);
      },
    );

    test('when the platform is deployed, then a Job runs `admin migrate` for the platform schema as the owner', () => {
      const container = one<IJob>('Job', 'platform-migrate').spec!.template.spec!.containers[0];
      expect(container.image).toMatch(new RegExp(`^${expected.registry.replace(/\./g, '\\.')}admin:`));
      expect(container.args).toEqual(['migrate', '--json']);
      expect(container.envFrom?.map((s) => s.secretRef?.name).filter(Boolean)).toEqual(['platform-secrets']);
      expect(container.env?.find((e) => e.name === 'PLATFORM_DATABASE_URL')?.valueFrom?.secretKeyRef).toEqual({
        name: 'database-owner',
        key: 'platform',
      });
    });

    test('when a Deployment runs, then none of its containers can read the owner login', () => {
      for (const deployment of deployments) {
        const pod = deployment.spec!.template.spec!;
        const secrets = [...pod.containers, ...(pod.initContainers ?? [])].flatMap((c) => [
          ...(c.envFrom ?? []).map((s) => s.secretRef?.name),
          ...(c.env ?? []).map((e) => e.valueFrom?.secretKeyRef?.name),
        ]);
        const volumes = (pod.volumes ?? []).map((v) => v.secret?.secretName);
        expect([deployment.metadata.name, [...secrets, ...volumes].filter((n) => n === 'database-owner')]).toEqual([
          deployment.metadata.name,
          [],
        ]);
      }
    });

    test('when traffic arrives, then the Ingress routes one host to each service', () => {
      const ingress = one<IIngress>('Ingress', 'platform');
      const services = new Map(all<IService>('Service').map((s) => [s.metadata.name, s]));
      const routed = (ingress.spec?.rules ?? []).map((rule) => {
        const [p] = rule.http?.paths ?? [];
        const backend = p.backend.service!;
        const target = services.get(backend.name);
        expect(target?.spec?.ports?.map((port) => port.name)).toContain(backend.port?.name);
        expect(rule.host).toMatch(new RegExp(`^${backend.name}\\.`));
        return backend.name;
      });
      expect(routed.sort()).toEqual([...SERVICE_NAMES, CONSOLE.name].sort());
      if (overlay === 'prod') {
        const tlsHosts = (ingress.spec?.tls ?? []).flatMap((t) => t.hosts ?? []);
        expect(tlsHosts.sort()).toEqual((ingress.spec?.rules ?? []).map((r) => r.host).sort());
      }
    });

    test('when a request for /metrics, /healthz or /readyz comes through the Ingress, then no rule routes it', () => {
      const ingress = one<IIngress>('Ingress', 'platform');
      const paths = (ingress.spec?.rules ?? []).flatMap((rule) => rule.http?.paths ?? []);
      expect(paths.length).toBe(SERVICE_NAMES.length + 1);
      // Prefix matching is by whole path segments: /v1 matches /v1/... only.
      const routes = (url: string) =>
        paths.some((p) => url === p.path || url.startsWith(`${p.path!.replace(/\/$/, '')}/`));
      for (const url of ['/metrics', '/healthz', '/readyz']) expect(routes(url)).toBe(false);
      expect(routes('/v1/openapi.json')).toBe(true);
    });

    describe('network policies', () => {
      const policies = all<INetworkPolicy>('NetworkPolicy');
      /** The policies that select pods with these labels, the namespace-wide default-deny aside. */
      const selecting = (labels: Record<string, string>) =>
        policies.filter(
          (p) =>
            p.metadata.name !== 'default-deny' &&
            Object.entries(p.spec?.podSelector?.matchLabels ?? {}).every(([key, value]) => labels[key] === value),
        );
      const egressPorts = (policy: INetworkPolicy) =>
        (policy.spec?.egress ?? []).flatMap((rule) => (rule.ports ?? []).map((port) => Number(port.port)));
      const podsOf = () => [
        ...all<IDeployment>('Deployment').map((d) => d.spec!.template.metadata!.labels!),
        ...all<IJob>('Job').map((j) => j.spec!.template.metadata!.labels!),
      ];

      test('when no policy allows traffic, then a default policy denies it both ways for every pod', () => {
        const deny = one<INetworkPolicy>('NetworkPolicy', 'default-deny');
        expect(deny.spec).toEqual({ podSelector: {}, policyTypes: ['Ingress', 'Egress'] });
      });

      test('when any Deployment or Job runs, then a policy of its own selects its pods', () => {
        for (const labels of podsOf()) expect(selecting(labels).length).toBeGreaterThan(0);
      });

      test.each(WORKLOADS)(
        'when %s is reached, then only the ingress controller (APIs), Prometheus and the console may, on its port',
        (name) => {
          const [policy] = selecting({ 'app.kubernetes.io/name': name });
          const [rule, ...others] = policy.spec?.ingress ?? [];
          // The six services are also reached by the console: its members sign in at Authentication
          // and its web pages pass their calls through to every service.
          expect(others).toEqual(
            name in SERVICES
              ? [
                  {
                    from: [{ podSelector: { matchLabels: { 'app.kubernetes.io/name': CONSOLE.name } } }],
                    ports: [{ port: SERVICES[name as keyof typeof SERVICES], protocol: 'TCP' }],
                  },
                ]
              : [],
          );
          const namespaces = (rule.from ?? []).map(
            (peer) => peer.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name'],
          );
          expect(namespaces.sort()).toEqual(name === 'llm-worker' ? ['monitoring'] : ['ingress-nginx', 'monitoring']);
          const port = SERVICES[(name === 'llm-worker' ? 'llm' : name) as keyof typeof SERVICES];
          expect(rule.ports?.map((p) => Number(p.port))).toEqual([port]);
        },
      );

      test('when services call out, then only billing, cms, llm and mailer reach the web, and never a private range', () => {
        for (const name of WORKLOADS) {
          const [policy] = selecting({ 'app.kubernetes.io/name': name });
          const web = egressPorts(policy).filter((port) => port === 80 || port === 443);
          expect([name, web.length > 0]).toEqual([
            name,
            ['billing', 'cms', 'llm', 'llm-worker', 'mailer'].includes(name),
          ]);
          for (const rule of policy.spec?.egress ?? [])
            for (const peer of rule.to ?? [])
              expect(peer.ipBlock?.except).toEqual(
                expect.arrayContaining(['10.0.0.0/8', '169.254.0.0/16', '192.168.0.0/16']),
              );
          expect(egressPorts(policy)).toEqual(expect.arrayContaining([53, 5432, 5672, 6379]));
        }
      });

      test('when a migration Job runs, then it may reach DNS and Postgres only', () => {
        const policy = one<INetworkPolicy>('NetworkPolicy', 'migrations');
        expect(policy.spec?.ingress ?? []).toEqual([]);
        expect([...new Set(egressPorts(policy))].sort()).toEqual([53, 5432]);
      });
    });

    test('when the news refresh is scheduled, then it is the in-service scheduler (no CronJob races it)', () => {
      expect(all('CronJob')).toEqual([]);
    });
  });
}

overlayTests();

describe('k8s secret templates', () => {
  const template = (name: string) => SECRET_TEMPLATES.find((s) => s.metadata?.name === name);

  test('when the templates are validated, then they are Secrets that hold placeholders only', () => {
    expect(SECRET_TEMPLATES.length).toBeGreaterThanOrEqual(9);
    for (const secret of SECRET_TEMPLATES) {
      expect(kubernetesSchemaError(secret as unknown as Manifest)).toBeUndefined();
      expect(secret.data).toBeUndefined();
      // a login's name is no secret
      for (const [key, value] of Object.entries(secret.stringData ?? {}))
        if (key !== 'username') expect(value).toMatch(/<[^>]+>/);
    }
  });

  test('when a service is deployed, then a Secret template holds its own login, used by both of its URLs', () => {
    for (const name of SERVICE_NAMES) {
      const data = template(`${name}-database`)?.stringData ?? {};
      expect(data.username).toBe(`${name}_app`);
      expect(data.uri).toMatch(new RegExp(`^postgres://${name}_app:<password>@[^/]+/${name}$`));
      expect(data['platform-uri']).toMatch(new RegExp(`^postgres://${name}_app:<password>@[^/]+/platform$`));
      expect(data.password).toBeDefined();
    }
    expect(SECRET_TEMPLATES.map((s) => s.metadata?.name)).toEqual(
      expect.arrayContaining(['platform-secrets', 'auth-jwt-signing', 'database-owner']),
    );
  });

  test('when the owner login is kept, then only in database-owner, one URL per database, and not among the shared secrets', () => {
    expect(Object.keys(template('database-owner')?.stringData ?? {}).sort()).toEqual(
      [...SERVICE_NAMES, CONSOLE.name, 'platform'].sort(),
    );
    expect(Object.keys(template('platform-secrets')?.stringData ?? {})).not.toContain('PLATFORM_DATABASE_URL');
  });
});
