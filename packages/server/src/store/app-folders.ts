import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A folder with one sub-folder per app (`<root>/<sdkAppId>/…`): what an app asks for is looked up in its own
 * sub-folder only, so one app never reaches another's files.
 */
export class AppFolders {
  readonly root: string;

  constructor(root: string) {
    this.root = root;
  }

  /** The app's folder. */
  of(sdkAppId: number): string {
    return join(this.root, String(sdkAppId));
  }

  /** A file of the app's folder. */
  file(sdkAppId: number, name: string): string {
    return join(this.of(sdkAppId), name);
  }

  /** The app's folder, created when missing. */
  ensure(sdkAppId: number): string {
    const dir = this.of(sdkAppId);
    mkdirSync(dir, { recursive: true });
    return dir;
  }

  /** The apps that have a folder. */
  apps(): number[] {
    let names: string[];
    try {
      names = readdirSync(this.root);
    } catch {
      return []; // no folder yet: no app has stored anything
    }
    return names.filter((name) => /^\d{1,10}$/.test(name)).map(Number);
  }

  /** The names in the app's folder; none when it does not exist. */
  names(sdkAppId: number): string[] {
    try {
      return readdirSync(this.of(sdkAppId));
    } catch {
      return []; // no folder yet: the app has stored nothing
    }
  }
}
