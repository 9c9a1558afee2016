import { describe, expect, it } from "vitest";
import { uploadToZip } from "@/lib/import/upload";

describe("uploadToZip", () => {
  it("names a batch after its folder, a zip after itself, and one file given alone after that file", async () => {
    expect((await uploadToZip([new File(["[]"], "open-eqa-v0.json")])).fileName).toBe("open-eqa-v0.json");
    expect((await uploadToZip([new File(["{}"], "batch/items.jsonl"), new File(["x"], "batch/a.png")])).fileName).toBe("batch");
    expect((await uploadToZip([new File(["{}"], "items.jsonl"), new File(["x"], "a.png")])).fileName).toBe("upload");
    expect((await uploadToZip([new File(["PK"], "release.zip")])).fileName).toBe("release.zip");
  });
});
