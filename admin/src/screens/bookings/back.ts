/**
 * The admin path a screen returns to (`?back=/planner?view=month&date=…`): only a path inside the app (one leading
 * slash), never another site.
 */
export function backOf(params: URLSearchParams): string | null {
  const b = params.get('back');
  return b && b.startsWith('/') && !b.startsWith('//') && !b.startsWith('/\\') ? b : null;
}

/** The words of a link back: the planner by name, else the bookings list. */
export const backLabel = (back: string | null) => (back?.startsWith('/planner') ? 'Back to planner' : 'Bookings');
