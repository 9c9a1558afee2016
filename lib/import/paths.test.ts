import { describe, expect, it } from "vitest";
import { checkBatchPath, checkZipEntryName } from "@/lib/import/paths";

describe("checkBatchPath", () => {
  it.each([
    ["img/a.png", "img/a.png"],
    ["a.png", "a.png"],
    ["./img/a.png", "img/a.png"],
    ["img//a.png", "img/a.png"],
    ["img/./sub/a.png", "img/sub/a.png"],
    ["QA/images/x y (1).png", "QA/images/x y (1).png"],
    ["img/ünïcode.png", "img/ünïcode.png"],
    ["img/a:b.png", "img/a:b.png"],
    ["..png", "..png"],
    ["img/...", "img/..."],
  ])("accepts %j as %j", (raw, normalised) => {
    expect(checkBatchPath(raw)).toEqual({ ok: true, path: normalised });
  });

  it.each([
    ["", "is empty"],
    ["../a.png", 'contains ".." and would leave the batch folder'],
    ["img/../../a.png", 'contains ".." and would leave the batch folder'],
    ["img/../a.png", 'contains ".." and would leave the batch folder'],
    ["img/..", 'contains ".." and would leave the batch folder'],
    ["/etc/passwd", "is an absolute path; paths must be relative to the batch folder"],
    ["//server/share/a.png", "is an absolute path; paths must be relative to the batch folder"],
    ["C:/images/a.png", "starts with a drive letter; paths must be relative to the batch folder"],
    ["c:a.png", "starts with a drive letter; paths must be relative to the batch folder"],
    ["img\\a.png", 'contains a backslash; separate folders with "/"'],
    ["..\\a.png", 'contains a backslash; separate folders with "/"'],
    ["img/a.png\0.txt", "contains a NUL character"],
    ["https://example.com/a.png", "is a URL; images must be files inside the batch"],
    ["file:///etc/passwd", "is a URL; images must be files inside the batch"],
    [".", "names no file"],
    ["./", "names no file"],
  ])("refuses %j: %s", (raw, reason) => {
    expect(checkBatchPath(raw)).toEqual({ ok: false, reason });
  });
});

describe("checkZipEntryName", () => {
  it("accepts folder entries and files", () => {
    expect(checkZipEntryName("img/")).toEqual({ ok: true, path: "img" });
    expect(checkZipEntryName("img/a.png")).toEqual({ ok: true, path: "img/a.png" });
  });

  it("says an escaping entry would be extracted outside the folder", () => {
    expect(checkZipEntryName("../evil.png")).toEqual({ ok: false, reason: 'contains ".." and would be extracted outside the batch folder' });
    expect(checkZipEntryName("/tmp/evil.png")).toEqual({ ok: false, reason: "is an absolute path; zip entries must be relative to the archive root" });
    expect(checkZipEntryName("..\\evil.png").ok).toBe(false);
  });
});
