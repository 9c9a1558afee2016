// js-yaml (installed with eslint's config loader) ships no types; tests/docker-compose.test.ts reads YAML with it
declare module "js-yaml" {
  export function load(text: string): unknown;
}
