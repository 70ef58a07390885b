// The calendar feeds this instance wrote last, kept by token with the version they were written
// under (views.ics-feed.ts feedVersion, computed fresh on every request). Calendar clients poll a
// feed that seldom changes, and many do not send If-None-Match: a feed whose ETag is still the one
// it was written under is sent again from memory. A feed whose records changed is written anew,
// taking the events of the unchanged records from the last writing when its layout (the view and
// its fields) is the same. The token is looked up (and the view checked) before the cache is
// asked, so a revoked or unpublished feed is never served from it. The gzip form of a feed is made
// once, for the first client that accepts it.
//
// Bounded by bytes (FEED_CACHE_BYTES, least recently used first out; a feed counts twice its size,
// for its text and its records' events); a feed larger than FEED_CACHE_MAX_ENTRY is never kept.
// Per instance: another instance writes its own copy once.
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { LRUCache } from 'lru-cache';
import type { FeedVersion, WrittenFeed } from './views.ics-feed.ts';

export const FEED_CACHE_BYTES = 64 * 1024 * 1024;
export const FEED_CACHE_MAX_ENTRY = 16 * 1024 * 1024;

const gzipped = promisify(gzip);

interface Entry extends FeedVersion {
  body: Buffer;
  gzip: Buffer | null;
  /** each record's events in `body` */
  events: WrittenFeed;
}

declare module '../../app/context.ts' {
  interface Services {
    /** the calendar feeds this instance wrote last (views.ics-feed-cache.ts) */
    viewFeeds: FeedCache;
  }
}

export class FeedCache {
  private readonly entries = new LRUCache<string, Entry>({
    maxSize: FEED_CACHE_BYTES,
    sizeCalculation: (e) => 2 * e.body.length + (e.gzip?.length ?? 0),
  });

  /** The feed written under `etag` for `key`, or null. */
  body(key: string, etag: string): Buffer | null {
    const entry = this.entries.get(key);
    return entry && entry.etag === etag ? entry.body : null;
  }

  /** Its gzip form, made now if it was not yet; null when the entry went meanwhile. */
  async gzip(key: string, etag: string): Promise<Buffer | null> {
    const entry = this.entries.get(key);
    if (!entry || entry.etag !== etag) return null;
    if (entry.gzip) return entry.gzip;
    const packed = await gzipped(entry.body);
    // stored again so that the cache counts the compressed copy too
    if (this.entries.get(key) === entry) this.entries.set(key, { ...entry, gzip: packed });
    return packed;
  }

  /** The records' events of the last writing under `layout`, or null. */
  written(key: string, layout: string): WrittenFeed | null {
    const entry = this.entries.get(key);
    return entry && entry.layout === layout ? entry.events : null;
  }

  keep(key: string, version: FeedVersion, body: Buffer, events: WrittenFeed): void {
    if (body.length > 0 && body.length <= FEED_CACHE_MAX_ENTRY) this.entries.set(key, { ...version, body, gzip: null, events });
  }
}
