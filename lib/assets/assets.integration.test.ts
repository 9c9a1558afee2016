import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { assetUrl, getAssetForUser } from "@/lib/assets";
import { db } from "@/lib/db";
import { importBatch, readBatchSource } from "@/lib/import";
import { createStudy, createUser, resetDatabase } from "@/tests/db-helpers";
import { batchFiles, forwardItem, writeFolder, removeTempFolders } from "@/tests/fixtures/import-batches";

afterAll(removeTempFolders);

let hash: string;
let studyId: string;

beforeEach(async () => {
  await resetDatabase();
  const study = await createStudy();
  studyId = study.id;
  const files = await batchFiles([forwardItem("a")]);
  await importBatch({ source: await readBatchSource({ folder: await writeFolder(files) }), studySlug: study.slug });
  const item = await db.item.findFirstOrThrow({ select: { public: true } });
  hash = (item.public as { initialImage: string }).initialImage.replace("/api/assets/", "");
});

describe("assetUrl", () => {
  it("builds /api/assets/<sha256> and refuses anything but a sha256 hex hash", () => {
    expect(assetUrl("a".repeat(64))).toBe(`/api/assets/${"a".repeat(64)}`);
    expect(() => assetUrl("../etc/passwd")).toThrow(TypeError);
  });
});

describe("getAssetForUser", () => {
  it("gives any asset to admins and researchers", async () => {
    for (const role of ["ADMIN", "RESEARCHER"] as const) {
      const user = await createUser(role);
      const asset = await getAssetForUser(hash, user.id, role);
      expect(asset).toMatchObject({ hash, mime: "image/png" });
      expect(asset).toMatchObject({ size: expect.any(Number), inPostgres: true, inObjectStore: false });
    }
  });

  it("gives an annotator the assets of studies they are a member of or have an assignment in, and nothing else", async () => {
    const outsider = await createUser("ANNOTATOR");
    expect(await getAssetForUser(hash, outsider.id, "ANNOTATOR")).toBeNull();

    const member = await createUser("ANNOTATOR");
    await db.studyMember.create({ data: { studyId, userId: member.id } });
    expect(await getAssetForUser(hash, member.id, "ANNOTATOR")).toMatchObject({ hash });

    const assigned = await createUser("ANNOTATOR");
    const item = await db.item.findFirstOrThrow({ select: { id: true } });
    await db.assignment.create({ data: { studyId, itemId: item.id, userId: assigned.id, position: 0 } });
    expect(await getAssetForUser(hash, assigned.id, "ANNOTATOR")).toMatchObject({ hash });

    // a member of another study that does not link the asset
    const other = await createStudy();
    const elsewhere = await createUser("ANNOTATOR");
    await db.studyMember.create({ data: { studyId: other.id, userId: elsewhere.id } });
    expect(await getAssetForUser(hash, elsewhere.id, "ANNOTATOR")).toBeNull();
  });

  it("returns null for unknown and malformed hashes", async () => {
    const admin = await createUser("ADMIN");
    expect(await getAssetForUser("0".repeat(64), admin.id, "ADMIN")).toBeNull();
    expect(await getAssetForUser("not-a-hash", admin.id, "ADMIN")).toBeNull();
    expect(await getAssetForUser(hash.toUpperCase(), admin.id, "ADMIN")).toBeNull();
  });
});
