/**
 * The live canvas page (`/place`): the board from `GET /api/public/place`, kept current by
 * the WebSocket `/api/place/ws`; zoom and pan by wheel, drag, pinch and buttons; a pixel's
 * owner on click, following every later placement on it; painting (signed in) after a
 * confirmation that shows the cost and the wallet. It speaks the language the server chose
 * (`<html lang>`).
 */
import { loadAreas } from './areas.js';
import { loadBoard } from './board.js';
import { t } from './i18n.js';
import { trackLayout } from './layout.js';
import { connect, FEED_ON_LOAD } from './liveUpdates.js';
import { loadMe } from './member.js';
import { bindOverlays } from './overlays.js';
import { bindPlacing } from './placing.js';
import { state } from './state.js';
import { bindTemplates } from './templates.js';
import { say } from './view.js';
import { bindViewport } from './viewportInput.js';
import { fitToView } from './zoom.js';

trackLayout();
bindViewport();
bindPlacing();
bindOverlays();
bindTemplates();

async function start(): Promise<void> {
  await loadBoard();
  fitToView();
  // The canvas works without its areas' outlines: a failed look-up leaves it unmarked.
  await loadAreas().catch(() => undefined);
  document.body.dataset.revision = String(state.revision);
  await loadMe();
  connect(FEED_ON_LOAD);
  document.body.dataset.ready = 'true';
}

void start().catch((error) => say(t('loadFailed', { reason: (error as Error).message })));
