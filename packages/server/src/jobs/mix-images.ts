import { closeSync, openSync, readSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MIX_IMAGE_LIMITS, MIX_IMAGE_NAME } from '@conclave/protocol';
import { StoreFullError } from '../store/store.js';
import { AppFolders } from '../store/app-folders.js';
import { imageInfo, type ImageInfo } from './image-info.js';

/** An image of the store as the admin API lists it. */
export interface MixImage extends ImageInfo {
  name: string;
  bytes: number;
  updatedAt: string;
}

/** Why an upload is refused; `limit` when the app already keeps the most images allowed. */
export class MixImageError extends Error {
  constructor(message: string, readonly limit = false) {
    super(message);
    this.name = 'MixImageError';
  }
}

const EXTENSION = { png: 'png', jpeg: 'jpg' } as const;
const FILE = /^([A-Za-z0-9_-]{1,64})\.(png|jpg)$/;

/** True when `name` can name an image: letters, digits, hyphen, underscore (no dots, no separators). */
export function isMixImageName(name: string): boolean {
  return MIX_IMAGE_NAME.test(name);
}

/** The first bytes of a file (enough for imageInfo's header reading). */
function head(path: string, bytes = 64 * 1024): Buffer {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    return buffer.subarray(0, readSync(fd, buffer, 0, bytes, 0));
  } finally {
    closeSync(fd);
  }
}

/**
 * Mix background images (CDNStreaming's mix.backgroundImage): one folder per app,
 * `<root>/<sdkAppId>/<name>.png|jpg`. Names are resolved only inside the asking app's folder, so one app
 * can never draw another's image, and the server never fetches a URL an app gives.
 */
export class MixImages {
  readonly #folders: AppFolders;

  constructor(root: string) {
    this.#folders = new AppFolders(root);
  }

  /** The file of an image of this app, or undefined (bad names included: they never reach the file system). */
  path(sdkAppId: number, name: string): string | undefined {
    if (!isMixImageName(name)) return undefined;
    for (const ext of Object.values(EXTENSION)) {
      const path = this.#folders.file(sdkAppId, `${name}.${ext}`);
      if (statSync(path, { throwIfNoEntry: false })?.isFile()) return path;
    }
    return undefined;
  }

  /** The app's images, by name. */
  list(sdkAppId: number): MixImage[] {
    const images: MixImage[] = [];
    for (const file of this.#folders.names(sdkAppId).sort()) {
      const m = FILE.exec(file);
      if (!m) continue;
      const path = this.#folders.file(sdkAppId, file);
      const stat = statSync(path, { throwIfNoEntry: false });
      const info = stat?.isFile() ? imageInfo(head(path)) : undefined;
      if (!stat || !info) continue;
      images.push({ name: m[1], ...info, bytes: stat.size, updatedAt: stat.mtime.toISOString() });
    }
    return images;
  }

  /**
   * Stores (or replaces) an image. Throws MixImageError when the name is invalid, the bytes are not a PNG or
   * JPEG within MIX_IMAGE_LIMITS, or the app already keeps MAX_PER_APP images.
   */
  put(sdkAppId: number, name: string, data: Buffer): MixImage {
    if (!isMixImageName(name)) throw new MixImageError('the name must be 1 to 64 letters, digits, hyphens or underscores');
    if (data.length > MIX_IMAGE_LIMITS.MAX_BYTES) throw new MixImageError(`the image exceeds ${MIX_IMAGE_LIMITS.MAX_BYTES} bytes`);
    const info = imageInfo(data);
    if (!info) throw new MixImageError('the body is not a PNG or JPEG image');
    const { MAX_SIDE } = MIX_IMAGE_LIMITS;
    if (info.width < 1 || info.height < 1 || info.width > MAX_SIDE || info.height > MAX_SIDE) {
      throw new MixImageError(`the image is ${info.width}x${info.height}; each side must be between 1 and ${MAX_SIDE} pixels`);
    }
    const existing = this.path(sdkAppId, name);
    if (!existing && this.list(sdkAppId).length >= MIX_IMAGE_LIMITS.MAX_PER_APP) {
      throw new MixImageError(`this app already has ${MIX_IMAGE_LIMITS.MAX_PER_APP} mix images; delete one first`, true);
    }
    const dir = this.#folders.ensure(sdkAppId);
    const path = join(dir, `${name}.${EXTENSION[info.type]}`);
    // Written aside, synced and renamed: a job loading the image meanwhile (or after a crash) reads the old
    // file or the new, never half. A full disk stores nothing and says so (HTTP 507).
    const temp = join(dir, `.${name}.${process.pid}.tmp`);
    try {
      writeFileSync(temp, data, { flush: true });
    } catch (error) {
      rmSync(temp, { force: true });
      if ((error as NodeJS.ErrnoException).code === 'ENOSPC') throw new StoreFullError(`the disk holding the mix images is full: ${name} was not stored`);
      throw error;
    }
    renameSync(temp, path);
    if (existing && existing !== path) rmSync(existing, { force: true });
    const stat = statSync(path);
    return { name, ...info, bytes: stat.size, updatedAt: stat.mtime.toISOString() };
  }

  /** Deletes an image; false when this app has none of that name. */
  delete(sdkAppId: number, name: string): boolean {
    const path = this.path(sdkAppId, name);
    if (!path) return false;
    rmSync(path, { force: true });
    return true;
  }
}
