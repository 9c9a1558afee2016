import { describe, expect, it } from "vitest";
import { parseAssetsArgs } from "@/lib/cli/assets";
import { assetRedirectOrigin, s3Settings } from "@/lib/assets/config";

describe("yardstick assets arguments", () => {
  it("takes migrate --to s3, with --clear-postgres only when given", () => {
    expect(parseAssetsArgs(["migrate", "--to", "s3"])).toEqual({ command: "migrate", to: "s3", clearPostgres: false });
    expect(parseAssetsArgs(["migrate", "--to=s3", "--clear-postgres"])).toEqual({ command: "migrate", to: "s3", clearPostgres: true });
  });
  it("refuses anything else with the usage", () => {
    expect(() => parseAssetsArgs(["migrate"])).toThrow(/--to s3 is required/);
    expect(() => parseAssetsArgs(["migrate", "--to", "postgres"])).toThrow(/--to s3/);
    expect(() => parseAssetsArgs(["copy", "--to", "s3"])).toThrow(/unknown assets command "copy"/);
    expect(() => parseAssetsArgs(["migrate", "--to", "s3", "--force"])).toThrow(/usage: yardstick assets migrate/);
  });
});

describe("S3 settings", () => {
  it("needs a bucket, names the variable at fault, and uses path-style addressing with an endpoint", () => {
    expect(() => s3Settings({})).toThrow(/S3_BUCKET is required/);
    expect(() => s3Settings({ S3_BUCKET: "b", S3_ENDPOINT: "ftp://x" })).toThrow(/S3_BUCKET must be a bucket name.*S3_ENDPOINT must be an http/);
    expect(s3Settings({ S3_BUCKET: "media", S3_ENDPOINT: "http://127.0.0.1:9000" })).toMatchObject({
      bucket: "media",
      region: "us-east-1",
      forcePathStyle: true,
      serve: "proxy",
      urlSeconds: 60,
    });
    expect(s3Settings({ S3_BUCKET: "media" })).toMatchObject({ forcePathStyle: false, endpoint: undefined });
    expect(() => s3Settings({ S3_BUCKET: "media", ASSET_S3_URL_SECONDS: "2" })).toThrow(/ASSET_S3_URL_SECONDS/);
  });
  it("gives pages the bucket's origin only when assets are answered by a redirect to it", () => {
    expect(assetRedirectOrigin({ ASSET_STORE: "s3", S3_BUCKET: "media", S3_ENDPOINT: "http://127.0.0.1:9000/x" })).toBeNull();
    expect(assetRedirectOrigin({ ASSET_STORE: "s3", ASSET_S3_SERVE: "redirect", S3_BUCKET: "media", S3_ENDPOINT: "http://127.0.0.1:9000/x" })).toBe(
      "http://127.0.0.1:9000",
    );
    expect(assetRedirectOrigin({ ASSET_STORE: "s3", ASSET_S3_SERVE: "redirect", S3_BUCKET: "media", S3_REGION: "eu-west-1" })).toBe(
      "https://media.s3.eu-west-1.amazonaws.com",
    );
  });
});
