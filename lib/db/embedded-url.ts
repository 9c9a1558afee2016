/** Where the embedded database (PGlite) is served while `npm run demo` runs: see database-url.ts. */
export const PGLITE_PORT = Number(process.env.YARDSTICK_PGLITE_PORT ?? 54329);

export function embeddedDatabaseUrl(port = PGLITE_PORT): string {
  return `postgresql://postgres@127.0.0.1:${port}/postgres?sslmode=disable`;
}
