import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { load } from "js-yaml";
import { describe, expect, it } from "vitest";

/**
 * docker-compose.yml is the reference deployment (docs/scaling.md). No Docker engine runs in CI,
 * so the file is parsed and checked here: two identical app instances on the primary with the
 * replica for reads and MinIO for assets, a replica made from the primary, and the files it mounts.
 */
const root = path.resolve(import.meta.dirname, "..");

interface Service {
  image?: string;
  build?: string;
  command?: string[];
  entrypoint?: string[];
  environment?: Record<string, string>;
  volumes?: string[];
  ports?: string[];
  depends_on?: Record<string, { condition: string }>;
}

const compose = load(readFileSync(path.join(root, "docker-compose.yml"), "utf8")) as { services: Record<string, Service>; volumes: Record<string, unknown> };
const { services } = compose;

function hostOf(url: string): string {
  return new URL(url.replace(/\$\{[^}]*\}/g, "x")).hostname;
}

describe("docker-compose.yml", () => {
  it("runs two identical app instances: primary for writes, the replica for reads, MinIO for assets", () => {
    const apps = Object.entries(services).filter(([, service]) => service.build === ".");
    expect(apps.map(([name]) => name).sort()).toEqual(["app-1", "app-2"]);
    const [[, first], [, second]] = apps;
    expect(first.environment).toEqual(second.environment);
    expect(first.ports).not.toEqual(second.ports);
    const env = first.environment!;
    expect(hostOf(env.DATABASE_URL)).toBe("db");
    expect(hostOf(env.DATABASE_REPLICA_URL)).toBe("replica");
    expect(env.ASSET_STORE).toBe("s3");
    expect(hostOf(env.S3_ENDPOINT)).toBe("minio");
    // secrets are the operator's, required: compose refuses to start without them (`${NAME:?...}`)
    for (const secret of ["NEXTAUTH_SECRET", "YARDSTICK_SECRET_KEY"]) expect(env[secret], secret).toMatch(new RegExp(`^\\$\\{${secret}:\\?[^}]+\\}$`));
    for (const needed of ["db", "replica", "minio"]) expect(first.depends_on?.[needed]?.condition).toBe("service_healthy");
  });

  it("makes the replica from the primary with pg_basebackup -R, with replication allowed on the primary", () => {
    const db = services.db;
    expect(db.command).toEqual(expect.arrayContaining(["wal_level=replica"]));
    const replica = services.replica;
    expect(replica.image).toBe(db.image);
    const mounted = [...(db.volumes ?? []), ...(replica.volumes ?? [])].filter((volume) => volume.startsWith("./")).map((volume) => volume.split(":")[0]);
    expect(mounted.length).toBeGreaterThanOrEqual(3);
    for (const file of mounted) expect(existsSync(path.join(root, file)), file).toBe(true);
    const entrypoint = readFileSync(path.join(root, "deploy/replica-entrypoint.sh"), "utf8");
    expect(entrypoint).toMatch(/pg_basebackup -h db -U replicator .*-R -X stream/);
    expect(readFileSync(path.join(root, "deploy/pg_hba.conf"), "utf8")).toMatch(/^host\s+replication\s+replicator\s+all\s+scram-sha-256$/m);
    expect(readFileSync(path.join(root, "deploy/primary-init.sh"), "utf8")).toContain("CREATE ROLE replicator WITH REPLICATION LOGIN");
    // named volumes are declared
    for (const service of Object.values(services)) {
      for (const volume of service.volumes ?? []) if (!volume.startsWith("./")) expect(Object.keys(compose.volumes)).toContain(volume.split(":")[0]);
    }
  });
});
