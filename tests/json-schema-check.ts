/**
 * A small JSON Schema (draft 2020-12) checker for tests: the keywords zod 4's toJSONSchema writes
 * for the kinds' answer and action schemas. A keyword it does not know throws (rather than pass a
 * value it did not check); annotations (title, description, default, ...) are skipped.
 * Returns the problems found, [] when the value is valid.
 */

type Schema = boolean | { [keyword: string]: unknown };

const annotations = new Set(["$schema", "$id", "title", "description", "default", "examples", "deprecated", "readOnly", "writeOnly", "$comment"]);
const known = new Set([
  "type",
  "properties",
  "required",
  "additionalProperties",
  "propertyNames",
  "items",
  "prefixItems",
  "minItems",
  "maxItems",
  "enum",
  "const",
  "anyOf",
  "oneOf",
  "allOf",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "minLength",
  "maxLength",
  "pattern",
  "$ref",
  "$defs",
]);

function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

function typeMatches(value: unknown, type: string): boolean {
  const actual = typeOf(value);
  return actual === type || (type === "number" && actual === "integer");
}

export function jsonSchemaProblems(schema: Schema, value: unknown, root: Schema = schema, at = "$"): string[] {
  if (schema === true) return [];
  if (schema === false) return [`${at}: no value is allowed here`];
  for (const keyword of Object.keys(schema)) {
    if (!known.has(keyword) && !annotations.has(keyword)) throw new Error(`json-schema-check: unknown keyword ${keyword} at ${at}`);
  }
  const problems: string[] = [];
  const s = schema;
  if (typeof s.$ref === "string") {
    const match = /^#\/\$defs\/(.+)$/.exec(s.$ref);
    const defs = typeof root === "object" ? (root.$defs as Record<string, Schema> | undefined) : undefined;
    if (!match || !defs?.[match[1]]) throw new Error(`json-schema-check: cannot resolve ${s.$ref}`);
    problems.push(...jsonSchemaProblems(defs[match[1]], value, root, at));
  }
  if (s.type !== undefined) {
    const types = Array.isArray(s.type) ? (s.type as string[]) : [s.type as string];
    if (!types.some((type) => typeMatches(value, type))) return [...problems, `${at}: expected ${types.join(" or ")}, got ${typeOf(value)}`];
  }
  if (s.const !== undefined && JSON.stringify(s.const) !== JSON.stringify(value)) problems.push(`${at}: expected ${JSON.stringify(s.const)}`);
  if (Array.isArray(s.enum) && !s.enum.some((option) => JSON.stringify(option) === JSON.stringify(value)))
    problems.push(`${at}: not one of ${JSON.stringify(s.enum)}`);
  if (Array.isArray(s.anyOf) && !s.anyOf.some((option) => jsonSchemaProblems(option as Schema, value, root, at).length === 0))
    problems.push(`${at}: matches none of anyOf`);
  if (Array.isArray(s.oneOf) && s.oneOf.filter((option) => jsonSchemaProblems(option as Schema, value, root, at).length === 0).length !== 1)
    problems.push(`${at}: does not match exactly one of oneOf`);
  if (Array.isArray(s.allOf)) for (const option of s.allOf) problems.push(...jsonSchemaProblems(option as Schema, value, root, at));
  if (typeof value === "number") {
    if (typeof s.minimum === "number" && value < s.minimum) problems.push(`${at}: below ${s.minimum}`);
    if (typeof s.maximum === "number" && value > s.maximum) problems.push(`${at}: above ${s.maximum}`);
    if (typeof s.exclusiveMinimum === "number" && value <= s.exclusiveMinimum) problems.push(`${at}: not above ${s.exclusiveMinimum}`);
    if (typeof s.exclusiveMaximum === "number" && value >= s.exclusiveMaximum) problems.push(`${at}: not below ${s.exclusiveMaximum}`);
  }
  if (typeof value === "string") {
    const length = [...value].length;
    if (typeof s.minLength === "number" && length < s.minLength) problems.push(`${at}: shorter than ${s.minLength}`);
    if (typeof s.maxLength === "number" && length > s.maxLength) problems.push(`${at}: longer than ${s.maxLength}`);
    if (typeof s.pattern === "string" && !new RegExp(s.pattern, "u").test(value)) problems.push(`${at}: does not match ${s.pattern}`);
  }
  if (Array.isArray(value)) {
    if (typeof s.minItems === "number" && value.length < s.minItems) problems.push(`${at}: fewer than ${s.minItems} items`);
    if (typeof s.maxItems === "number" && value.length > s.maxItems) problems.push(`${at}: more than ${s.maxItems} items`);
    const prefix = Array.isArray(s.prefixItems) ? (s.prefixItems as Schema[]) : [];
    value.forEach((entry, i) => {
      const itemSchema = i < prefix.length ? prefix[i] : (s.items as Schema | undefined);
      if (itemSchema !== undefined) problems.push(...jsonSchemaProblems(itemSchema, entry, root, `${at}[${i}]`));
    });
  }
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    const record = value as Record<string, unknown>;
    const properties = (s.properties ?? {}) as Record<string, Schema>;
    for (const name of (s.required ?? []) as string[]) if (!Object.hasOwn(record, name)) problems.push(`${at}: ${name} is required`);
    for (const [name, entry] of Object.entries(record)) {
      if (s.propertyNames !== undefined) problems.push(...jsonSchemaProblems(s.propertyNames as Schema, name, root, `${at} (name ${name})`));
      if (Object.hasOwn(properties, name)) problems.push(...jsonSchemaProblems(properties[name], entry, root, `${at}.${name}`));
      else if (s.additionalProperties !== undefined) problems.push(...jsonSchemaProblems(s.additionalProperties as Schema, entry, root, `${at}.${name}`));
    }
  }
  return problems;
}
