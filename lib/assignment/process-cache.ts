import { LRUCache } from "lru-cache";

const caches = ((globalThis as unknown as { yardstickAssignmentCaches?: Map<string, LRUCache<string, object>> }).yardstickAssignmentCaches ??= new Map());

/**
 * A bounded per-process cache (least recently used goes first; entries older than `ttl` ms are
 * misses), one per name: kept on globalThis so that every copy of this module in the process
 * (Next.js bundles a module into several server chunks, and reloads it in development) shares it.
 */
export function processCache<V extends object>(name: string, options: { max: number; ttl?: number }): LRUCache<string, V> {
  let cache = caches.get(name);
  if (!cache) caches.set(name, (cache = new LRUCache<string, object>(options)));
  return cache as LRUCache<string, V>;
}
