import { z } from "zod";

/**
 * Where asset bytes go (docs/media.md):
 * - `ASSET_STORE=postgres` (default): in the Asset row (bytea); nothing to set up.
 * - `ASSET_STORE=s3`: in an S3-compatible bucket (AWS S3, MinIO, R2) under the sha256 hex of the
 *   bytes: `S3_BUCKET` (required), `S3_REGION` (default us-east-1), `S3_ENDPOINT` (for anything but
 *   AWS; path-style addressing is then used, as MinIO and s3rver need; `S3_FORCE_PATH_STYLE=0`
 *   turns it off), credentials from the usual AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY (or any
 *   source of the AWS SDK's default chain). `ASSET_S3_SERVE=proxy` (default) streams the object
 *   through the app; `redirect` answers with a presigned URL valid `ASSET_S3_URL_SECONDS` (60).
 */
export type AssetStoreKind = "postgres" | "s3";

export interface S3Settings {
  bucket: string;
  region: string;
  endpoint: string | undefined;
  forcePathStyle: boolean;
  serve: "proxy" | "redirect";
  urlSeconds: number;
}

type Env = Record<string, string | undefined>;

const blankToUndefined = (value: unknown) => (typeof value === "string" && value.trim() === "" ? undefined : typeof value === "string" ? value.trim() : value);

const storeSchema = z.preprocess(blankToUndefined, z.enum(["postgres", "s3"], { error: 'ASSET_STORE must be "postgres" or "s3"' }).default("postgres"));

const s3Schema = z.object({
  S3_BUCKET: z.preprocess(
    blankToUndefined,
    z
      .string({ error: "S3_BUCKET is required for the S3 asset store" })
      .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, "S3_BUCKET must be a bucket name (3-63 lower-case letters, digits, dots, hyphens)"),
  ),
  S3_REGION: z.preprocess(blankToUndefined, z.string().max(64).default("us-east-1")),
  S3_ENDPOINT: z.preprocess(blankToUndefined, z.url({ protocol: /^https?$/, error: "S3_ENDPOINT must be an http(s) URL" }).optional()),
  S3_FORCE_PATH_STYLE: z.preprocess(blankToUndefined, z.enum(["0", "1", "false", "true"], { error: "S3_FORCE_PATH_STYLE must be 1 or 0" }).optional()),
  ASSET_S3_SERVE: z.preprocess(blankToUndefined, z.enum(["proxy", "redirect"], { error: 'ASSET_S3_SERVE must be "proxy" or "redirect"' }).default("proxy")),
  ASSET_S3_URL_SECONDS: z.preprocess(
    (value) => (blankToUndefined(value) === undefined ? undefined : Number(value)),
    z.number({ error: "ASSET_S3_URL_SECONDS must be a whole number of seconds from 5 to 3600" }).int().min(5).max(3600).default(60),
  ),
});

function explain(error: z.ZodError): string {
  return error.issues.map((issue) => issue.message).join("; ");
}

/** The configured store; throws naming the variable when it is set to something else. */
export function assetStoreKind(env: Env = process.env): AssetStoreKind {
  const parsed = storeSchema.safeParse(env.ASSET_STORE);
  if (!parsed.success) throw new Error(explain(parsed.error));
  return parsed.data;
}

/** The S3 settings (for ASSET_STORE=s3 and for `yardstick assets migrate --to s3`); throws naming the variable at fault. */
export function s3Settings(env: Env = process.env): S3Settings {
  const parsed = s3Schema.safeParse(env);
  if (!parsed.success) throw new Error(`S3 asset store settings: ${explain(parsed.error)}`);
  const value = parsed.data;
  return {
    bucket: value.S3_BUCKET,
    region: value.S3_REGION,
    endpoint: value.S3_ENDPOINT,
    forcePathStyle:
      value.S3_FORCE_PATH_STYLE === undefined ? value.S3_ENDPOINT !== undefined : value.S3_FORCE_PATH_STYLE === "1" || value.S3_FORCE_PATH_STYLE === "true",
    serve: value.ASSET_S3_SERVE,
    urlSeconds: value.ASSET_S3_URL_SECONDS,
  };
}

/**
 * The origin pages must allow in img-src and media-src when assets are answered by a redirect to
 * the bucket (ASSET_S3_SERVE=redirect); null otherwise. Never throws (the page proxy calls it):
 * bad settings surface where assets are served.
 */
export function assetRedirectOrigin(env: Env = process.env): string | null {
  if (env.ASSET_STORE?.trim() !== "s3" || env.ASSET_S3_SERVE?.trim() !== "redirect") return null;
  try {
    const settings = s3Settings(env);
    if (settings.endpoint) {
      const url = new URL(settings.endpoint);
      return settings.forcePathStyle ? url.origin : `${url.protocol}//${settings.bucket}.${url.host}`;
    }
    return settings.forcePathStyle ? `https://s3.${settings.region}.amazonaws.com` : `https://${settings.bucket}.s3.${settings.region}.amazonaws.com`;
  } catch {
    return null;
  }
}
