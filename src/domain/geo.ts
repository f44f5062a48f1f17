/** Great-circle distances between coordinates (WGS 84 degrees). */

/** A coordinate pair in WGS 84 degrees. */
export interface Point {
  lat: number;
  lon: number;
}

const EARTH_RADIUS_M = 6_371_008.8;

/** Haversine distance in whole metres. */
export function distanceMeters(a: Point, b: Point): number {
  const rad = Math.PI / 180;
  const s = Math.sin((b.lat - a.lat) * rad / 2) ** 2 +
    Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin((b.lon - a.lon) * rad / 2) ** 2;
  return Math.round(2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(s))));
}

/** A `[lon, lat]` GeoJSON position, or a `{type:"Point", coordinates:[lon, lat]}` object. */
export function positionOf(v: unknown): Point | undefined {
  const c = Array.isArray(v)
    ? v
    : (v && typeof v === "object" ? (v as { coordinates?: unknown }).coordinates : undefined);
  if (!Array.isArray(c) || c.length < 2) return undefined;
  const [lon, lat] = c;
  if (typeof lat !== "number" || typeof lon !== "number" || !Number.isFinite(lat) || !Number.isFinite(lon)) {
    return undefined;
  }
  return Math.abs(lat) <= 90 && Math.abs(lon) <= 180 ? { lat, lon } : undefined;
}
