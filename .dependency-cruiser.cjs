// The layers of docs/architecture.md, checked on every CI run (`npm run lint:deps`): any rule below that
// a change breaks fails the build. Type-only imports count (tsPreCompilationDeps), since a type import
// ties two modules together as much as a value import does for whoever reads or moves them.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import cycles anywhere in src/: a cycle makes every file of it depend on all the others.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'no-folder-cycles',
      severity: 'error',
      comment:
        'No cycles between folders of src/ either: two domain folders that import each other are one folder in ' +
        'disguise. What a lower folder announces reaches a higher one through a subscriber (domain/subscribers.ts).',
      scope: 'folder',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'domain-not-edge',
      severity: 'error',
      comment: 'The domain holds the business rules and knows nothing of HTTP, job loops, pages or composition.',
      from: { path: '^src/domain/' },
      to: { path: '^src/(http|jobs|web)/|^src/(app|bootstrap|main)\\.ts$' },
    },
    {
      name: 'providers-stand-alone',
      severity: 'error',
      comment: 'Providers are adapters behind the PaymentProvider port: they never reach into the domain or the edge.',
      from: { path: '^src/providers/' },
      to: { path: '^src/(http|jobs|web|domain)/|^src/(app|bootstrap|main)\\.ts$' },
    },
    {
      name: 'fiscal-stand-alone',
      severity: 'error',
      comment: 'Fiscal drivers are adapters behind the FiscalDriver port: never reaching into the domain or edge.',
      from: { path: '^src/fiscal/' },
      to: { path: '^src/(http|jobs|web|domain|providers)/|^src/(app|bootstrap|main)\\.ts$' },
    },
    {
      name: 'channels-stand-alone',
      severity: 'error',
      comment: 'Channel drivers send one message each; the outbox (domain) decides when and how often.',
      from: { path: '^src/channels/' },
      to: { path: '^src/(http|jobs|web|domain|db|infra)/|^src/(app|bootstrap|main)\\.ts$' },
    },
    {
      name: 'infra-low',
      severity: 'error',
      comment: 'Infrastructure (rate-limit store, caches) sits under everything that uses it.',
      from: { path: '^src/infra/' },
      to: { path: '^src/(domain|http|jobs|web|providers)/|^src/(app|bootstrap|main|deps)\\.ts$' },
    },
    {
      name: 'foundation-low',
      severity: 'error',
      comment:
        'Deps, configuration, errors, secrets and crypto are what every layer stands on: they import none of them.',
      from: { path: '^src/(deps|config|errors|crypto|secrets)\\.ts$' },
      to: { path: '^src/(http|jobs|web)/|^src/(app|bootstrap|main)\\.ts$' },
    },
    {
      name: 'jobs-not-edge',
      severity: 'error',
      comment: 'Job loops call the domain; they never go through the HTTP layer or the pages.',
      from: { path: '^src/jobs/' },
      to: { path: '^src/(http|web)/|^src/app\\.ts$' },
    },
    {
      name: 'web-is-presentation',
      severity: 'error',
      comment: 'Pages and their assets render what they are given; they do not call the domain or the edge.',
      from: { path: '^src/web/' },
      to: { path: '^src/(domain|http|jobs|providers|infra|db)/' },
    },
    {
      name: 'surfaces-apart',
      severity: 'error',
      comment:
        'An HTTP surface (auth, cabinet, v2, v1, checkout, system, later partner, partner-api, admin) never imports ' +
        'another: what two surfaces share lives in http/shapes/, http/plugins/ or http/*.ts.',
      from: { path: '^src/http/(?!shapes/|plugins/)([^/]+)/' },
      to: { path: '^src/http/(?!shapes/|plugins/)[^/]+/', pathNot: '^src/http/$1/' },
    },
    {
      name: 'shapes-below-surfaces',
      severity: 'error',
      comment: 'Shapes and plugins are shared by the surfaces, so they never import one.',
      from: { path: '^src/http/(shapes|plugins)/' },
      to: { path: '^src/http/(?!shapes/|plugins/)[^/]+/' },
    },
    {
      name: 'payments-core',
      severity: 'error',
      comment:
        'The payment core is below links, notifications, webhooks, accounts and v1: what a payment causes ' +
        'there is a subscriber of afterPaymentPaid (domain/subscribers.ts), not an import.',
      from: { path: '^src/domain/payments/' },
      to: { path: '^src/domain/(links|notifications|webhooks|accounts|v1|branding)/|^src/domain/subscribers\\.ts$' },
    },
    {
      name: 'events-below-webhooks',
      severity: 'error',
      comment: 'The journal is below what reacts to it: deliveries are a subscriber of afterEventAppended.',
      from: { path: '^src/domain/events/' },
      to: {
        path: '^src/domain/(webhooks|payments|links|notifications|accounts|branding|v1)/|^src/domain/subscribers\\.ts$',
      },
    },
    {
      name: 'branding-below-links',
      severity: 'error',
      comment:
        'Links show branding on the checkout; branding never needs links (shared rules are in domain/addresses.ts).',
      from: { path: '^src/domain/branding/' },
      to: { path: '^src/domain/links/' },
    },
    {
      name: 'access-is-pure',
      severity: 'error',
      comment: 'Who may do what is a pure table: no store, no providers, no other domain folder.',
      from: { path: '^src/domain/access/' },
      to: { path: '^src/(db|providers|infra)/|^src/domain/(?!access/|tenant\\.ts)' },
    },
    {
      name: 'subscribers-wired-at-the-top',
      severity: 'error',
      comment: 'domain/subscribers.ts names every subscriber; only composition (bootstrap) calls it.',
      from: { path: '^src/', pathNot: '^src/bootstrap\\.ts$' },
      to: { path: '^src/domain/subscribers\\.ts$' },
    },
    {
      name: 'src-not-to-tests-or-tools',
      severity: 'error',
      comment: 'Shipped code never imports tests, benchmarks or scripts.',
      from: { path: '^src/' },
      to: { path: '^(test|bench|scripts)/' },
    },
    {
      name: 'not-to-dev-dep',
      severity: 'error',
      comment: 'Shipped code uses runtime dependencies only: a devDependency is not installed in production.',
      from: { path: '^src/' },
      to: { dependencyTypes: ['npm-dev'], dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'Every import resolves: a typo in a path fails here, not at start-up.',
      from: { path: '^src/' },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // The project compiles with TypeScript 7, whose compiler API dependency-cruiser cannot load; swc parses
    // the sources instead (it keeps `import type` declarations, so type-only imports are cruised too).
    parser: 'swc',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.mjs', '.cjs', '.json'],
    },
    moduleSystems: ['es6', 'cjs'],
  },
};
