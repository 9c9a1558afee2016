import "server-only";
import JSZip from "jszip";
import { AppError } from "@/lib/errors";
import { MAX_UPLOAD_BYTES } from "@/lib/validations/import";

/**
 * A batch uploaded from the admin page: one .zip, or the files of a folder (each named by its
 * path relative to the chosen folder, as browsers report it). A folder becomes an in-memory zip
 * whose entries keep the names as sent, so the importer's path checks see exactly what the
 * browser sent (a name like "../x.png" is rejected there, not silently cleaned here).
 */
export async function uploadToZip(files: File[]): Promise<{ zip: Buffer; fileName: string }> {
  if (files.length === 0) throw new AppError("INVALID", "Choose a .zip file or a folder holding items.jsonl");
  const total = files.reduce((sum, file) => sum + file.size, 0);
  if (total > MAX_UPLOAD_BYTES)
    throw new AppError("TOO_LARGE", `The upload is ${(total / 1048576).toFixed(0)} MiB; the limit is ${MAX_UPLOAD_BYTES / 1048576} MiB`);
  if (files.length === 1 && files[0].name.toLowerCase().endsWith(".zip")) {
    return { zip: Buffer.from(await files[0].arrayBuffer()), fileName: files[0].name };
  }
  // a folder: strip the chosen folder's own name, which browsers put in front of every path
  const names = files.map((file) => file.name.replaceAll("\\", "/"));
  const first = names[0].split("/")[0];
  const sharedTop = names.every((name) => name.startsWith(`${first}/`)) ? `${first}/` : "";
  const zip = new JSZip();
  files.forEach((file, index) => zip.file(names[index].slice(sharedTop.length), file.arrayBuffer(), { createFolders: false }));
  const bytes = await zip.generateAsync({ type: "nodebuffer", compression: "STORE" });
  // a folder is named after itself; one file given alone (an items.jsonl, OpenEQA's JSON) after that file
  return { zip: bytes, fileName: sharedTop ? sharedTop.slice(0, -1) : names.length === 1 ? (names[0].split("/").at(-1) ?? "upload") : "upload" };
}
