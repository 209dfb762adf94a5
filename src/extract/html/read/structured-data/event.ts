/** Event's shape (and its subtypes'): where (a Place's address on one line), who organises, tickets. */

import { addressOf, addressText, partyOf } from './parties.js';
import { offersOf } from './product.js';
import type { Thing } from './thing.js';
import { isThing } from './thing.js';
import type { Location, StructuredItem } from './types.js';
import type { ShapeContext } from './values.js';
import { dateOf, enumNameOf, firstUrl, imagesOf, nameOf, plainText, textOf, valuesOf } from './values.js';

export function eventShape(thing: Thing, ctx: ShapeContext): Partial<StructuredItem> {
  return {
    name: textOf(thing, 'name', 'headline'),
    description: textOf(thing, 'description'),
    start_date: dateOf(thing, 'startDate'),
    end_date: dateOf(thing, 'endDate'),
    location: locationOf(thing, ctx),
    organizer: partyOf(thing, 'organizer', ctx),
    offers: offersOf(thing, ctx),
    status: enumNameOf(thing, 'eventStatus'),
    attendance_mode: enumNameOf(thing, 'eventAttendanceMode'),
    image: imagesOf(thing, ctx, 'image'),
    url: firstUrl(thing, ctx, 'url'),
  };
}

/** The first location: a Place (name, address), a PostalAddress, a VirtualLocation (url) or a written place. */
function locationOf(thing: Thing, ctx: ShapeContext): Location | undefined {
  for (const value of valuesOf(thing, 'location')) {
    if (!isThing(value)) {
      const name = plainText(value, thing.source);
      if (name !== '') return { name };
      continue;
    }
    const place = ctx.index.resolve(value);
    const postal = place.types.includes('PostalAddress');
    const location: Location = {
      name: postal ? undefined : nameOf(place),
      address: postal ? addressText(place, ctx, place.source) : addressOf(place, 'address', ctx),
      url: place.types.includes('VirtualLocation') ? firstUrl(place, ctx, 'url') : undefined,
    };
    if (Object.values(location).some((field) => field !== undefined)) return location;
  }
  return undefined;
}
