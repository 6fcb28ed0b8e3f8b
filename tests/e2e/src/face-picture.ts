/**
 * A fake camera showing a face, for FaceDetection and Beauty: the astronaut photograph (Eileen Collins, NASA;
 * public domain, as scikit-image's data module states) that scikit-image bundles in its wheel, fetched once
 * from PyPI (pinned; `pip download`, no install) into node_modules/.cache, then made into a y4m with ffmpeg:
 * the upper three quarters of the 512×512 picture (head and shoulders) scaled to 640×480, 1 s at 15 fps
 * (Chromium loops it). A fresh CI machine reproduces it with python3 (its pip, else a venv's) and PyPI.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The pinned wheel that bundles skimage/data/astronaut.png. */
export const SCIKIT_IMAGE_VERSION = '0.25.2';

const CACHE = join(fileURLToPath(new URL('../../../', import.meta.url)), 'node_modules', '.cache', 'face-picture');
const VENV = join(CACHE, 'venv');

/** A pip: python3's own when it has one, else a venv's (python3-venv, which .ci/run installs, brings pip along). */
function pip(): string[] {
  try {
    execFileSync('python3', ['-m', 'pip', '--version'], { stdio: 'pipe', timeout: 30_000 });
    return ['python3', '-m', 'pip'];
  } catch {
    if (!existsSync(join(VENV, 'bin', 'pip'))) execFileSync('python3', ['-m', 'venv', VENV], { stdio: 'pipe', timeout: 120_000 });
    return [join(VENV, 'bin', 'pip')];
  }
}
const PICTURE = join(CACHE, `astronaut-${SCIKIT_IMAGE_VERSION}.png`);

/** Where the face is in the 640×480 frame (fractions): the head, hair to chin. */
export const FACE_REGION = { x: 0.3, y: 0.1, w: 0.3, h: 0.45 } as const;

/** The astronaut picture (PNG path), fetched on first use. */
export function facePicture(): string {
  if (existsSync(PICTURE)) return PICTURE;
  mkdirSync(CACHE, { recursive: true });
  const work = mkdtempSync(join(tmpdir(), 'face-picture-'));
  try {
    // A wheel of any platform holds the same data file: pin one, so any machine fetches the same bytes.
    const [command, ...prefix] = pip();
    execFileSync(command, [...prefix, 'download', '--disable-pip-version-check', '-q', '--no-deps', '--only-binary=:all:',
      '--platform', 'manylinux_2_17_x86_64', '--python-version', '3.11', '--implementation', 'cp', '-d', work, `scikit-image==${SCIKIT_IMAGE_VERSION}`],
    { stdio: 'pipe', timeout: 300_000 });
    const wheel = readdirSync(work).find((name) => name.endsWith('.whl'));
    if (!wheel) throw new Error('pip downloaded no wheel');
    execFileSync('python3', ['-c', 'import sys, zipfile; open(sys.argv[2], "wb").write(zipfile.ZipFile(sys.argv[1]).read("skimage/data/astronaut.png"))', join(work, wheel), PICTURE],
      { stdio: 'pipe', timeout: 60_000 });
  } catch (error) {
    rmSync(PICTURE, { force: true });
    const detail = error instanceof Error && 'stderr' in error ? String((error as { stderr: unknown }).stderr).slice(-1500) : String(error);
    throw new Error(`cannot fetch the face picture (scikit-image==${SCIKIT_IMAGE_VERSION} from PyPI with python3 -m pip): ${detail}`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return PICTURE;
}

/** The y4m of the face camera (made once per machine); for --use-file-for-fake-video-capture. */
export function faceY4m(): string {
  const file = join(tmpdir(), 'conclave-video-effects-y4m', `face-${SCIKIT_IMAGE_VERSION}-640x480.y4m`);
  if (!existsSync(file)) {
    mkdirSync(join(file, '..'), { recursive: true });
    execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-loop', '1', '-i', facePicture(), '-vf', 'crop=512:384:0:0,scale=640:480,format=yuv420p',
      '-r', '15', '-t', '1', '-pix_fmt', 'yuv420p', file], { timeout: 60_000 });
  }
  return file;
}
