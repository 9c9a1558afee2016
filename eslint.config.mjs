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
];

export default config;
