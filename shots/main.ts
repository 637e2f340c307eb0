/**
 * `npm run shots`: a picture of every screen. Renders every image the bot
 * draws (shots/images.ts), the web page at three sizes, signed in and out,
 * in both languages (shots/webPages.ts), and the bot's replies as Discord shows them (the
 * shop, forms, menu entries, Link buttons, a poker hand: shots/discordReplies.ts) into `out/shots/`, then writes the
 * contact sheet `out/shots/index.html`, and refreshes the pictures the documentation shows
 * (`docs/`).
 */
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { writeContactSheet } from './contactSheet.js';
import { renderDiscordReplyShots } from './discordReplies.js';
import { renderImageShots } from './images.js';
import { updateReadmeShots } from './readmeShots.js';
import { renderWebShots } from './webPages.js';

const outDir = path.resolve(process.argv[2] ?? 'out/shots');
await rm(outDir, { recursive: true, force: true });
await mkdir(outDir, { recursive: true });
const images = await renderImageShots(outDir);
const pages = await renderWebShots(outDir);
const replies = await renderDiscordReplyShots(outDir);
const sheet = await writeContactSheet(outDir, [...images, ...pages, ...replies]);
const docs = await updateReadmeShots(outDir, path.resolve('docs'));
console.log(
  `shots: ${images.length} images, ${pages.length} web pages, ${replies.length} Discord replies → ${sheet}; ${docs} documentation pictures in docs/`,
);
process.exit(0);
