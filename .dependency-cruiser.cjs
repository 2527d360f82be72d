/**
 * The layers of the house (../shared/DESIGN.md section 2), enforced: `npm run lint` fails on any of these.
 *   src/contract  the wire: schemas and types both programs stand on; imports nothing of ours
 *   src/domain    pure rules shared with the server; imports only the contract
 *   src/api       the storefront's HTTP client; stores use it, screens and components never do
 *   server        imports of src/ only from src/contract and src/domain; routes call services and never the
 *                 database; services know nothing of HTTP
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import circle: split the shared part into a module both import (gateways import payments/types.ts, not the index).',
      from: {},
      to: { circular: true },
    },
    {
      name: 'contract-at-the-bottom',
      severity: 'error',
      comment: 'src/contract is the floor: it imports only libraries and itself.',
      from: { path: '^src/contract/' },
      to: { path: '^(src/(?!contract/)|server/)' },
    },
    {
      name: 'domain-is-pure',
      severity: 'error',
      comment: 'src/domain holds pure rules: it imports only the contract and itself.',
      from: { path: '^src/domain/' },
      to: { path: '^(src/(?!contract/|domain/)|server/)' },
    },
    {
      name: 'ui-not-api',
      severity: 'error',
      comment: 'Screens and components read stores (DESIGN.md section 2: API module -> store -> component); types come from src/contract.',
      from: { path: '^src/(components|screens)/' },
      to: { path: '^src/api/' },
    },
    {
      name: 'server-uses-contract-and-domain-only',
      severity: 'error',
      comment: 'The server imports of the storefront only src/contract and src/domain.',
      from: { path: '^server/' },
      to: { path: '^src/(?!contract/|domain/)' },
    },
    {
      name: 'nothing-imports-stories',
      severity: 'error',
      comment:
        'Stories (src/stories, Ladle at /_stories) may import anything in src; nothing imports them, so no story reaches the storefront build.',
      from: { path: '^(src/(?!stories/)|server/)' },
      to: { path: '(^src/stories/|[.]stories[.]tsx?$)' },
    },
    {
      name: 'storefront-not-server',
      severity: 'error',
      comment: 'The browser program never imports the server.',
      from: { path: '^src/' },
      to: { path: '^server/' },
    },
    {
      name: 'routes-not-db',
      severity: 'error',
      comment: "A route validates by schema and calls a service; the database is the services' business.",
      from: { path: '^server/routes/' },
      to: { path: '^server/db/' },
    },
    {
      name: 'services-not-http',
      severity: 'error',
      comment: 'Services throw DomainError and know nothing of HTTP: no fastify, no server/http, no routes.',
      from: { path: '^server/services/' },
      to: { path: '^(server/(http|routes)/|node_modules/(fastify|@fastify)/)' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
    exclude: { path: '^(dist|dist-stories|node_modules)/' },
  },
};
