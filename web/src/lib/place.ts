/**
 * Where a borrower lives (PRODUCT.md 10, 11): the location tree the server answers
 * for `/loan/getConfigByKey` `provinces` (PSGC names under PH), and the stored form
 * of `provinceCity`, `"Region,Province,City"`, with an empty province in a region
 * without provinces (NCR): `"National Capital Region (NCR),,Quezon City"`. The server
 * decides (aggregates `reference` module); these helpers only read and write the form.
 */

/** A province and its cities and municipalities. */
export interface Province {
  province: string;
  cities: string[];
}

/** A region: provinces with their cities, or (NCR) its cities directly. */
export interface Region {
  region: string;
  provinces?: Province[];
  cities?: string[];
}

/** A place's three parts; `province` is '' in a region without provinces. */
export interface PlaceParts {
  region: string;
  province: string;
  city: string;
}

export const emptyPlace: PlaceParts = { region: '', province: '', city: '' };

/** True when the region lists its cities directly (no provinces). */
export const hasProvinces = (region: Region | undefined) => !!region?.provinces?.length;

/** The stored form of a complete place, or '' while a part is missing. */
export function storePlace({ region, province, city }: PlaceParts): string {
  return region && city ? [region, province, city].join(',') : '';
}

/**
 * The parts of a stored value when it names a place of `regions`; otherwise (a value
 * saved in the old "province,city" form, or one no longer listed) nothing is chosen.
 */
export function placeIn(regions: readonly Region[], stored: string | null | undefined): PlaceParts {
  const parts = (stored ?? '').split(',');
  if (parts.length !== 3) return emptyPlace;
  const [region, province, city] = parts;
  const r = regions.find((x) => x.region === region);
  const cities = province ? r?.provinces?.find((p) => p.province === province)?.cities : r?.cities;
  return cities?.includes(city) ? { region, province, city } : emptyPlace;
}

/** A stored value for people, smallest part first: "City, Province, Region". */
export function formatPlace(stored: string | null | undefined): string {
  return (stored ?? '')
    .split(',')
    .reverse()
    .filter((part) => part)
    .join(', ');
}
