import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import S3rver from "s3rver";
import { freePort } from "@/tests/faults/ports";

/**
 * A local S3-compatible server (s3rver) for tests of the S3 asset store: on a free loopback port,
 * its objects in a temp folder, one bucket; `env` holds the settings the app reads
 * (lib/assets/config.ts) with s3rver's fixed credentials; `writes` lists every object written
 * ("ObjectCreated:Put" or, for a multipart upload, "ObjectCreated:Post") or removed, in order, by
 * key. `stop()` closes it and removes the folder.
 */
export interface TestS3 {
  endpoint: string;
  bucket: string;
  directory: string;
  env: Record<string, string>;
  writes: Array<{ event: string; key: string }>;
  stop(): Promise<void>;
}

export async function startS3rver(bucket = "yardstick-test"): Promise<TestS3> {
  const directory = await mkdtemp(path.join(os.tmpdir(), "yardstick-s3rver-"));
  const port = await freePort();
  const server = new S3rver({ port, address: "127.0.0.1", directory, silent: true, configureBuckets: [{ name: bucket, configs: [] }] });
  const writes: TestS3["writes"] = [];
  server.on("event", (event) => {
    for (const record of event.Records) writes.push({ event: record.eventName, key: record.s3.object.key });
  });
  await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    directory,
    writes,
    env: {
      S3_ENDPOINT: endpoint,
      S3_BUCKET: bucket,
      S3_REGION: "us-east-1",
      AWS_ACCESS_KEY_ID: "S3RVER",
      AWS_SECRET_ACCESS_KEY: "S3RVER",
    },
    async stop() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

/** Sets environment variables for the duration of a test; returns the function that puts the old values back. */
export function setEnv(values: Record<string, string | undefined>): () => void {
  const old = Object.fromEntries(Object.keys(values).map((name) => [name, process.env[name]]));
  const apply = (entries: Record<string, string | undefined>) => {
    for (const [name, value] of Object.entries(entries)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
  apply(values);
  return () => apply(old);
}
