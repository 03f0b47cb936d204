// Static checks of the Docker files (bash .ci/run docker): no Docker engine runs on the CI
// machine, so nothing is built; this reads docker/docker-compose.yml, docker/nginx.conf,
// docker/Dockerfile and .dockerignore and fails, listing every problem, when the stack
// lost a property it relies on.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, URL } from 'node:url';
import { parse } from 'yaml';
import { startCommand } from '../support/start-flags.mjs';

process.chdir(fileURLToPath(new URL('../..', import.meta.url))); // paths below are from the repository root

const problems = [];
const check = (ok, message) => {
  if (!ok) problems.push(message);
};

// docker-compose.yml: valid YAML with the services and keys the stack relies on:
// two API replicas behind nginx, PostgreSQL and Redis, health checks on /health/ready.
const composeFile = 'docker/docker-compose.yml';
const compose = parse(readFileSync(composeFile, 'utf8'));
const api = compose?.services?.api;
const nginx = compose?.services?.nginx;
const postgres = compose?.services?.postgres;
const redis = compose?.services?.redis;
check(api, 'compose: service api is missing');
check(nginx, 'compose: service nginx is missing');
check(postgres, 'compose: service postgres is missing');
check(redis, 'compose: service redis is missing');
const seconds = (value) => {
  const match = /^(\d+)(ms|s|m)?$/.exec(String(value ?? ''));
  return match ? Number(match[1]) * { ms: 0.001, s: 1, m: 60 }[match[2] ?? 's'] : NaN;
};
if (api) {
  const context = resolve(dirname(composeFile), api.build?.context ?? '.');
  check(
    existsSync(resolve(context, api.build?.dockerfile ?? 'Dockerfile')),
    'compose: api build context/dockerfile do not resolve to a file',
  );
  check(context === resolve('.'), 'compose: api build context is not the repository root');
  check(api.deploy?.replicas === 2, 'compose: api must run two replicas (deploy.replicas: 2)');
  check(api.ports === undefined, 'compose: api replicas must not publish host ports (clients go through nginx)');
  const env = api.environment ?? {};
  check(
    /^postgres(ql)?:\/\/.*@postgres:5432\//.test(String(env.DATABASE_URL ?? '')),
    'compose: api DATABASE_URL does not point at the postgres service',
  );
  check(
    /^redis:\/\/redis:6379\/?$/.test(String(env.REDIS_URL ?? '')),
    'compose: api REDIS_URL does not point at the redis service (shared rate limits)',
  );
  check(
    /^\$\{BOOTSTRAP_ADMIN_KEY:\?.+\}$/.test(String(env.BOOTSTRAP_ADMIN_KEY ?? '')),
    'compose: api BOOTSTRAP_ADMIN_KEY must use ${BOOTSTRAP_ADMIN_KEY:?message}',
  );
  check(
    /^\$\{WEBHOOKS_SECRET_KEY:\?.+\}$/.test(String(env.WEBHOOKS_SECRET_KEY ?? '')),
    'compose: api WEBHOOKS_SECRET_KEY must use ${WEBHOOKS_SECRET_KEY:?message} (one key for both replicas, never a literal)',
  );
  check(String(env.TRUST_PROXY ?? '') === '1', 'compose: api TRUST_PROXY must be 1 (one proxy, nginx, in front)');
  check(api.depends_on?.postgres?.condition === 'service_healthy', 'compose: api must wait for postgres to be healthy');
  check(api.depends_on?.redis?.condition === 'service_healthy', 'compose: api must wait for redis to be healthy');
  check(
    Array.isArray(api.healthcheck?.test) && api.healthcheck.test.join(' ').includes('/health/ready'),
    'compose: api healthcheck must probe /health/ready',
  );
  const grace = Number(env.SHUTDOWN_GRACE_MS ?? 10000) / 1000;
  check(
    seconds(api.stop_grace_period) > grace,
    `compose: api stop_grace_period (${api.stop_grace_period}) must exceed SHUTDOWN_GRACE_MS (${grace}s)`,
  );
}
if (nginx) {
  check(
    /^nginx:1\.(2[89]|[3-9]\d)/.test(String(nginx.image ?? '')),
    'compose: nginx image must be nginx 1.28 or later (upstream "resolve")',
  );
  check((nginx.ports ?? []).map(String).includes('3000:80'), 'compose: nginx does not publish 3000:80');
  check(
    (nginx.volumes ?? []).some((v) => String(v).startsWith('./nginx.conf:/etc/nginx/nginx.conf')),
    'compose: nginx does not mount ./nginx.conf',
  );
  check(nginx.depends_on?.api?.condition === 'service_healthy', 'compose: nginx must wait for a healthy api');
}
if (postgres) {
  check(postgres.image === 'postgres:16', 'compose: postgres image is not postgres:16');
  check(postgres.environment?.POSTGRES_PASSWORD !== undefined, 'compose: postgres has no POSTGRES_PASSWORD');
  check((postgres.volumes ?? []).length > 0, 'compose: postgres has no volume');
  check(
    JSON.stringify(postgres.healthcheck?.test ?? '').includes('pg_isready'),
    'compose: postgres healthcheck does not use pg_isready',
  );
}
if (redis) {
  check(/^redis:7/.test(String(redis.image ?? '')), 'compose: redis image is not redis:7');
  check(JSON.stringify(redis.healthcheck?.test ?? '').includes('ping'), 'compose: redis healthcheck does not ping');
}

// nginx.conf: balanced blocks, every simple directive ends with ';', and the proxy
// to the api replicas (no nginx here to run `nginx -t`).
const nginxConf = readFileSync('docker/nginx.conf', 'utf8');
{
  const code = nginxConf.replace(/^\s*#.*$/gm, '').replace(/'[^'\n]*'|"[^"\n]*"/g, "''");
  let depth = 0;
  let statement = '';
  for (const ch of code) {
    if (ch === '{') {
      depth++;
      statement = '';
    } else if (ch === '}') {
      check(statement.trim() === '', `nginx.conf: '${statement.trim()}' lacks its ';'`);
      depth--;
      statement = '';
      check(depth >= 0, 'nginx.conf: unbalanced }');
    } else if (ch === ';') {
      // A directive continued on the next line only by a string (log_format); anything
      // else there means the previous line lacks its ';'.
      const [first, ...rest] = statement
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean);
      check(
        rest.every((l) => l.startsWith("''")),
        `nginx.conf: '${first}' lacks its ';'`,
      );
      statement = '';
    } else statement += ch;
  }
  check(depth === 0, 'nginx.conf: unbalanced {');
  check(statement.trim() === '', `nginx.conf: '${statement.trim()}' lacks its ';'`);
  const upstream = /upstream\s+(\w+)\s*\{([^}]*)\}/.exec(code);
  check(upstream && /server\s+api:3000\b/.test(upstream[2]), 'nginx.conf: no upstream with server api:3000');
  check(
    upstream && new RegExp(`proxy_pass\\s+http://${upstream[1]}\\s*;`).test(code),
    'nginx.conf: proxy_pass does not use the upstream',
  );
  check(/resolver\s+127\.0\.0\.11\b/.test(code), "nginx.conf: no resolver for Docker's DNS");
  for (const header of ['X-Forwarded-For', 'X-Request-Id']) {
    check(new RegExp(`proxy_set_header\\s+${header}\\b`).test(code), `nginx.conf: ${header} is not passed on`);
  }
}

// Dockerfile: instructions (continuation lines joined), grouped by stage.
const lines = readFileSync('docker/Dockerfile', 'utf8')
  .replace(/\\\r?\n/g, ' ')
  .split(/\r?\n/)
  .map((line) => line.trim())
  .filter((line) => line && !line.startsWith('#'));
const stages = [];
for (const line of lines) {
  const [instruction, ...rest] = line.split(/\s+/);
  const args = rest.join(' ');
  if (instruction.toUpperCase() === 'FROM') stages.push({ from: args, lines: [] });
  else stages.at(-1)?.lines.push({ instruction: instruction.toUpperCase(), args });
}
check(stages.length >= 2, 'Dockerfile: expected a multi-stage build');
const names = stages.map((s) => /\s+AS\s+(\S+)$/i.exec(s.from)?.[1]).filter(Boolean);
const final = stages.at(-1) ?? { from: '', lines: [] };
const all = (stage, instruction) => stage.lines.filter((l) => l.instruction === instruction).map((l) => l.args);
const runs = stages
  .slice(0, -1)
  .flatMap((s) => all(s, 'RUN'))
  .join('\n');
for (const command of ['npm ci', 'npm run build', 'npm prune --omit=dev']) {
  check(runs.includes(command), `Dockerfile: build stage does not run '${command}'`);
}
check(
  /^node:24(-bookworm-slim)?(\s|$)/.test(final.from),
  `Dockerfile: final stage is '${final.from}', expected node:24-bookworm-slim`,
);
// The build stage installs and builds: on another Node, npm ci would meet other engines.
for (const stage of stages.slice(0, -1)) {
  check(
    /^node:24(-bookworm-slim)?(\s|$)/.test(stage.from) || names.some((name) => stage.from.startsWith(`${name} `)),
    `Dockerfile: stage '${stage.from}' is not on node:24-bookworm-slim`,
  );
}
const user = all(final, 'USER').at(-1);
check(
  user !== undefined && !/^(root|0)(:|$)/.test(user),
  `Dockerfile: final stage must switch to a non-root USER (got ${user})`,
);
check(
  all(final, 'ENV').some((e) => /NODE_ENV[= ]production/.test(e)),
  'Dockerfile: NODE_ENV=production is not set',
);
check(
  all(final, 'EXPOSE').some((e) => e.split(/\s+/).includes('3000')),
  'Dockerfile: does not EXPOSE 3000',
);
check(all(final, 'HEALTHCHECK').length === 1, 'Dockerfile: final stage needs one HEALTHCHECK');
check(
  all(final, 'HEALTHCHECK').every((h) => h.includes('/health/ready')),
  'Dockerfile: HEALTHCHECK must probe /health/ready',
);
// DATA_DIR (ENV, else ./data under WORKDIR) is made and given to the USER before the switch to it.
const workdir = all(final, 'WORKDIR').at(-1) ?? '/';
const dataDir = /(?:^|\s)DATA_DIR=(\S+)/.exec(all(final, 'ENV').join(' '))?.[1] ?? 'data';
const absoluteDataDir = dataDir.startsWith('/')
  ? dataDir
  : `${workdir.replace(/\/$/, '')}/${dataDir.replace(/^\.\//, '')}`;
const userName = (user ?? '').split(':')[0];
const beforeUser = final.lines.slice(
  0,
  final.lines.findLastIndex((l) => l.instruction === 'USER'),
);
check(
  beforeUser.some(
    (l) =>
      l.instruction === 'RUN' &&
      new RegExp(`mkdir -p [^&;]*${absoluteDataDir}(\\s|$)`).test(l.args) &&
      new RegExp(`chown (-R )?${userName}(:\\S+)? [^&;]*${absoluteDataDir}(\\s|$)`).test(l.args),
  ),
  `Dockerfile: DATA_DIR (${absoluteDataDir}) must be created and owned by ${userName} before USER`,
);
// The image starts the service as `npm start` does, flags included (package.json's start script).
const cmd = all(final, 'CMD').at(-1);
const startScript = startCommand('.');
check(
  cmd !== undefined && JSON.stringify(JSON.parse(cmd)) === JSON.stringify(startScript),
  `Dockerfile: CMD must be ${JSON.stringify(startScript)}, package.json's start script (got ${cmd})`,
);
// npm ci reads every workspace's manifest (package.json "workspaces", e.g. console/): each is copied before it runs.
const workspaces = JSON.parse(readFileSync('package.json', 'utf8')).workspaces ?? [];
for (const stage of stages.slice(0, -1)) {
  const ci = stage.lines.findIndex((l) => l.instruction === 'RUN' && l.args.includes('npm ci'));
  if (ci === -1) continue;
  const copied = stage.lines
    .slice(0, ci)
    .filter((l) => l.instruction === 'COPY')
    .map((l) => l.args);
  for (const workspace of workspaces) {
    check(
      copied.some((c) => c.split(/\s+/).includes(`${workspace}/package.json`)),
      `Dockerfile: ${workspace}/package.json (a workspace) must be copied before 'npm ci'`,
    );
  }
}
for (const copy of stages.flatMap((s) => all(s, 'COPY'))) {
  const from = /--from=(\S+)/.exec(copy)?.[1];
  check(from === undefined || names.includes(from), `Dockerfile: COPY --from=${from} names no stage`);
}

// .dockerignore keeps local state out of the build context.
const ignored = readFileSync('.dockerignore', 'utf8')
  .split(/\r?\n/)
  .map((l) => l.trim().replace(/^\/|\/$/g, ''));
// .ci/node: the Node versions CI installs (hundreds of MB of binaries).
for (const entry of ['node_modules', 'dist', 'data', 'coverage', '.git', '.ci/node']) {
  check(ignored.includes(entry), `.dockerignore: ${entry} is not ignored`);
}

if (problems.length > 0) {
  console.error(problems.map((p) => `- ${p}`).join('\n'));
  process.exit(1);
}
console.log(
  `docker/docker-compose.yml parses; services: ${Object.keys(compose.services).join(', ')}; api replicas: ${api.deploy.replicas}`,
);
console.log('docker/nginx.conf: balanced, terminated, proxies to api:3000 with X-Forwarded-For and X-Request-Id');
console.log(
  `docker/Dockerfile: ${stages.length} stages, final FROM ${final.from}, USER ${user} (owns ${absoluteDataDir}), CMD ${cmd}`,
);
console.log('.dockerignore covers node_modules, dist, data, coverage, .git, .ci/node');
console.log(`docker/Dockerfile copies the workspaces' manifests before npm ci: ${workspaces.join(', ') || 'none'}`);
