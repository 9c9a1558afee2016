/**
 * Raw entry names from a zip's central directory (PKWARE APPNOTE.TXT, sections 4.3.12 and
 * 4.3.16), read by hand because JSZip sanitises names when it loads ("../evil.png" becomes
 * "evil.png") and keeps the raw name only for file entries whose name survived: a later entry
 * with the same sanitised name, or a folder entry, hides it. Checking every raw name here is what
 * lets an unsafe archive be rejected rather than quietly repaired.
 */

export interface RawZipEntry {
  /** the name as stored (UTF-8 when flagged, else decoded as Latin-1: the checks only need ASCII) */
  name: string;
  /** a Unix symbolic link (made on Unix with file type S_IFLNK in the external attributes) */
  symlink: boolean;
  /** the CRC-32 of the inflated bytes, and the sizes, as the central directory declares them */
  crc32: number;
  compressedSize: number;
  uncompressedSize: number;
  /** where the entry's local header starts, and where its compressed data ends */
  localOffset: number;
  dataEnd: number;
}

const endOfCentralDirectory = 0x06054b50;
const centralFileHeader = 0x02014b50;

/** Every central-directory entry, or null when the archive is not one this reader understands (ZIP64, damaged). */
export function readZipEntryNames(zip: Buffer): RawZipEntry[] | null {
  const lowest = Math.max(0, zip.length - 22 - 0xffff);
  let end = -1;
  for (let offset = zip.length - 22; offset >= lowest; offset--) {
    if (zip.readUInt32LE(offset) === endOfCentralDirectory) {
      end = offset;
      break;
    }
  }
  if (end < 0) return null;
  const total = zip.readUInt16LE(end + 10);
  const start = zip.readUInt32LE(end + 16);
  if (total === 0xffff || start === 0xffffffff) return null; // ZIP64: leave it to JSZip's names
  const entries: RawZipEntry[] = [];
  let offset = start;
  for (let i = 0; i < total; i++) {
    if (offset + 46 > zip.length || zip.readUInt32LE(offset) !== centralFileHeader) return null;
    const madeBy = zip.readUInt16LE(offset + 4) >> 8;
    const flags = zip.readUInt16LE(offset + 8);
    const nameLength = zip.readUInt16LE(offset + 28);
    const extraLength = zip.readUInt16LE(offset + 30);
    const commentLength = zip.readUInt16LE(offset + 32);
    const external = zip.readUInt32LE(offset + 38);
    const crc32 = zip.readUInt32LE(offset + 16);
    const compressedSize = zip.readUInt32LE(offset + 20);
    const uncompressedSize = zip.readUInt32LE(offset + 24);
    const localOffset = zip.readUInt32LE(offset + 42);
    // the local header's own name and extra lengths place the data (they may differ from the central ones)
    const localLengths = localOffset + 30 <= zip.length ? zip.readUInt16LE(localOffset + 26) + zip.readUInt16LE(localOffset + 28) : 0;
    const dataEnd = localOffset + 30 + localLengths + compressedSize;
    const nameBytes = zip.subarray(offset + 46, offset + 46 + nameLength);
    const name = nameBytes.toString(flags & 0x800 ? "utf8" : "latin1");
    const unixMode = (external >>> 16) & 0o170000;
    entries.push({ name, symlink: madeBy === 3 && unixMode === 0o120000, crc32, compressedSize, uncompressedSize, localOffset, dataEnd });
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}
