import { featureDisabled } from '../../src/errors.js';
import type { RuntimeConfig } from '../../src/runtimeConfig/runtimeConfig.js';
import type { Painter } from './areas.js';
import { BLANK } from './palette.js';
import type { PlaceService } from './placeService.js';

/**
 * Whether a placement would leave its pixel as it is: the pixel already has that colour (one
 * never painted is blank). Such a placement still costs a pixel, so the member is asked first.
 * What would refuse the placement anyway (painting switched off, a pixel off the canvas, a
 * protected area) refuses here first: nobody is asked to confirm a placement that cannot happen.
 */
export async function paintsSameColor(
  deps: { place: PlaceService; runtimeConfig: RuntimeConfig },
  request: { x: number; y: number; color: number; painter: Painter },
): Promise<boolean> {
  const { x, y, color, painter } = request;
  const found = await deps.place.pixelInfo(x, y);
  if ((found?.pixel.color ?? BLANK) !== color) return false;
  if (!(await deps.runtimeConfig.get('place_enabled')))
    throw featureDisabled('place:errors.disabled', 'place_enabled');
  await deps.place.areas.refuse(x, y, painter);
  return true;
}
