import "server-only";
import { readFile, readdir } from "node:fs/promises";
import path from "node:path";

/**
 * The docs served inside the app: README.md (as "readme") and every docs/*.md, read from the
 * checkout at request time so that what the app serves is what the repository says. A name is
 * looked up in the folder's listing, never joined into a path as given.
 */

const ROOT = process.cwd();

export interface HelpDoc {
  name: string;
  title: string;
}

function titleOf(markdown: string, fallback: string): string {
  return /^#\s+(.+)$/m.exec(markdown)?.[1].trim() ?? fallback;
}

async function files(): Promise<Map<string, string>> {
  const found = new Map<string, string>([["readme", path.join(ROOT, "README.md")]]);
  for (const entry of await readdir(path.join(ROOT, "docs")).catch(() => [] as string[])) {
    if (/^[a-z0-9-]+\.md$/.test(entry)) found.set(entry.slice(0, -3), path.join(ROOT, "docs", entry));
  }
  return found;
}

export async function listHelpDocs(): Promise<HelpDoc[]> {
  const out: HelpDoc[] = [];
  for (const [name, file] of await files()) out.push({ name, title: titleOf(await readFile(file, "utf8"), name) });
  return out;
}

/** The doc's Markdown, or null when there is no doc of that name. */
export async function readHelpDoc(name: string): Promise<{ name: string; title: string; markdown: string } | null> {
  const file = (await files()).get(name);
  if (!file) return null;
  const markdown = await readFile(file, "utf8");
  return { name, title: titleOf(markdown, name), markdown };
}
