import nextCoreWebVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";

/**
 * One data layer (README.md, "Architecture"): the Prisma client and its SQL helpers (lib/db) are
 * used by the repositories of lib/repos only; services call repository functions and never build
 * a query. Harnesses that set data up directly (scripts, bench, e2e, tests and test fixtures) may
 * use them too. Prisma's types stay importable everywhere (`import type`), so that a service can
 * name a row or a JSON value; its enums are plain values.
 */
const dataLayerFiles = ["lib/repos/**", "lib/db/**", "lib/db.ts"];
const harnessFiles = ["scripts/**", "bench/**", "e2e/**", "tests/**", "**/*.test.ts", "**/*.test.tsx", "lib/**/testing/**"];
/** the CLI's entry point closes the client when a command ends, as scripts/worker.ts does */
const entryPoints = ["cli/yardstick.ts"];

const dataLayerMessage = 'Data access lives in lib/repos: call (or add) a repository function there (README.md, "Architecture").';
const dataLayerImport = {
  paths: [
    { name: "@/lib/db", message: dataLayerMessage },
    { name: "@/lib/db/read", message: dataLayerMessage },
    { name: "@/lib/db/sql", message: dataLayerMessage },
    { name: "@/lib/db/copy", importNames: ["copyLineReader", "copySupported"], message: dataLayerMessage },
    { name: "@/lib/db/enabled-user", importNames: ["enabledUserSql"], message: dataLayerMessage },
  ],
  patterns: [
    {
      group: ["@/lib/generated/prisma/*", "!@/lib/generated/prisma/enums"],
      allowTypeImports: true,
      message: `${dataLayerMessage} Prisma's types may be imported with \`import type\`.`,
    },
  ],
};

/**
 * lib's layers (README.md, "Architecture"), held here so that an arrow in the wrong direction
 * fails lint: pure statistics import nothing else; browser-safe code (lib/client) none of the
 * server; the data layer (lib/repos, lib/db) no service. Core `no-restricted-imports`, so the
 * data-layer rule above (its typescript-eslint twin) still applies beside it.
 */
const serverDomains = [
  "annotate",
  "assets",
  "assignment",
  "audit",
  "auth",
  "cli",
  "dashboard",
  "db",
  "exports",
  "help",
  "http",
  "import",
  "jobs",
  "models",
  "participants",
  "plan",
  "recruitment",
  "report",
  "repos",
  "responses",
  "review",
  "scoring",
  "security",
  "studies",
];
const layerRules = [
  {
    files: ["lib/stats/**/*.ts"],
    ignores: harnessFiles,
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ regex: "^@/(?!lib/stats(/|$))", message: "lib/stats holds pure statistics: it imports only lib/stats." }] },
      ],
    },
  },
  {
    files: ["lib/client/**/*.{ts,tsx}"],
    ignores: harnessFiles,
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: `^@/lib/(${serverDomains.join("|")})(/|$)`,
              message: 'lib/client runs in the browser: it imports no server code (README.md, "Architecture").',
            },
          ],
        },
      ],
    },
  },
  {
    // a kind reads and writes its data through the ports it is handed (lib/tasks/dashboard-port.ts, replay-port.ts)
    files: ["lib/tasks/**/*.{ts,tsx}"],
    ignores: harnessFiles,
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [{ regex: "^@/lib/(repos|db)(/|$)", message: "A task kind does no data access: its dashboard reads through lib/tasks/dashboard-port.ts." }],
        },
      ],
    },
  },
  {
    files: ["lib/repos/**/*.ts", "lib/db/**/*.ts", "lib/db.ts"],
    ignores: harnessFiles,
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: `^@/lib/(${serverDomains.filter((domain) => domain !== "repos" && domain !== "db" && domain !== "assignment").join("|")})(/|$)`,
              allowTypeImports: true,
              message:
                'The data layer reads and writes; the services call it, never the other way (README.md, "Architecture"). Types may be imported with `import type`.',
            },
          ],
        },
      ],
    },
  },
];

const config = [
  ...nextCoreWebVitals,
  ...nextTypescript,
  {
    ignores: [
      "node_modules/**",
      ".next/**",
      ".next-*/**",
      "bench/.results/**",
      "lib/generated/**",
      "dist/**",
      ".yardstick/**",
      "test-results*/**",
      "playwright-report*/**",
      "e2e/.auth*/**",
      "next-env.d.ts",
    ],
  },
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    files: ["**/*.ts", "**/*.tsx", "**/*.mts", "**/*.mjs", "**/*.js"],
    ignores: [...dataLayerFiles, ...harnessFiles, ...entryPoints],
    rules: {
      "@typescript-eslint/no-restricted-imports": ["error", dataLayerImport],
      // the same for import("@/lib/db") and the like, which no-restricted-imports does not see
      "no-restricted-syntax": [
        "error",
        { selector: "ImportExpression[source.value=/^@\\/lib\\/(db|db\\/(read|sql)|generated\\/prisma\\/(?!enums$).*)$/]", message: dataLayerMessage },
      ],
    },
  },
  {
    // app/ holds routes: a page loads its data and lays out section components; logic lives in lib/, views in components/
    files: ["app/**/*.{ts,tsx}"],
    rules: { "max-lines-per-function": ["error", { max: 120, skipBlankLines: false, skipComments: false, IIFEs: true }] },
  },
  ...layerRules,
];

export default config;
