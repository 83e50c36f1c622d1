// The layer check behind `npm run lint`: src/ folders only import folders below them (ARCHITECTURE.md).
// Bottom first; a layer may import its own folder and every layer below it, never one above or beside it.
export const layers = [
  // src/errors.ts, beside the folders: the one error class everything may throw
  { name: 'base', paths: ['src/errors\\.ts$'] },
  // the per-event start's V8 code cache (node built-ins only): the cli starts from it, doctor says when it is stale
  { name: 'start', paths: ['src/start/'] },
  { name: 'decision', paths: ['src/decision/'] },
  { name: 'content', paths: ['src/content/'] },
  { name: 'link', paths: ['src/link/'] },
  // a loaded policy carries what decisions read, compiled from content kinds and link rules when it is built
  { name: 'policy', paths: ['src/policy/'] },
  { name: 'read', paths: ['src/read/'] },
  { name: 'gate', paths: ['src/gate/'] },
  { name: 'record', paths: ['src/record/'] },
  { name: 'fetch', paths: ['src/fetch/'] },
  { name: 'flow', paths: ['src/flow/'] },
  { name: 'sdk, review, report', paths: ['src/sdk/', 'src/review/', 'src/report/'] },
  // one description per host (claude code, codex, gemini cli, cursor): hooks, tool names, matchers, switches, trust
  { name: 'hosts', paths: ['src/hosts/'] },
  { name: 'proxy, hook', paths: ['src/proxy/', 'src/hook/'] },
  // the resident server for Claude Code's HTTP hooks, over the hook's own handling (docs/resident-hook.md)
  { name: 'resident', paths: ['src/resident/'] },
  // adapters for agent frameworks (subpath exports) over the Transport decorator and the hook's host mapping
  { name: 'frameworks', paths: ['src/frameworks/'] },
  // linkgate doctor: reads every host's configuration and judges the proxies and hooks in it
  { name: 'doctor', paths: ['src/doctor/'] },
  { name: 'bundle', paths: ['src/bundle/'] },
  { name: 'cli', paths: ['src/cli/'] },
  { name: 'demo', paths: ['src/demo/'] },
  { name: 'public surface', paths: ['src/index\\.ts$', 'src/testing/'] },
];

const folderOf = (path) => `^(${path})`;
const rules = [];
layers.forEach((layer, i) => {
  const above = layers.slice(i + 1).flatMap((l) => l.paths);
  if (above.length > 0)
    rules.push({
      name: `layer-${layer.name.replace(/\W+/g, '-')}-imports-up`,
      comment: `${layer.name} is below ${layers
        .slice(i + 1)
        .map((l) => l.name)
        .join(', ')}: it may not import them`,
      severity: 'error',
      from: { path: layer.paths.map(folderOf).join('|') },
      to: { path: above.map(folderOf).join('|') },
    });
  // folders that share a layer do not import each other
  for (const from of layer.paths)
    for (const to of layer.paths)
      if (from !== to)
        rules.push({
          name: `layer-${layer.name.replace(/\W+/g, '-')}-imports-beside`,
          comment: `${from} and ${to} share a layer: neither imports the other`,
          severity: 'error',
          from: { path: folderOf(from) },
          to: { path: folderOf(to) },
        });
});

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    ...rules,
    {
      name: 'no-circular',
      comment: 'no module imports itself through others',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'not-in-layers',
      comment: 'every module of src/ belongs to a layer: add a new folder to `layers` above',
      severity: 'error',
      from: {
        path: '^src/',
        pathNot: layers
          .flatMap((l) => l.paths)
          .map(folderOf)
          .join('|'),
      },
      to: {},
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    includeOnly: '^src/',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
