import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { DrawnText } from '../src/render/canvasTools.js';
import { imageScenes } from './imageScenes.js';
import type { Shot } from './shot.js';

/**
 * Renders every image the bot makes into `<outDir>/images/` (shots/imageScenes.ts) and says
 * which texts did not fit their box, if any (the overflow test fails on them too).
 */
export async function renderImageShots(outDir: string): Promise<Shot[]> {
  const dir = path.join(outDir, 'images');
  await mkdir(dir, { recursive: true });
  const shots: Shot[] = [];
  for (const scene of imageScenes()) {
    const texts: DrawnText[] = [];
    const data = await scene.render((text) => texts.push(text));
    await writeFile(path.join(dir, scene.file), data);
    for (const t of texts.filter((t) => t.width > t.box + 0.5 || t.drawn !== t.text)) {
      console.warn(
        `shots: ${scene.file}: "${t.text}" drawn as "${t.drawn}" (${Math.ceil(t.width)} of ${t.box} px)`,
      );
    }
    shots.push({ file: `images/${scene.file}`, group: 'Images', title: scene.title });
  }
  return shots;
}
