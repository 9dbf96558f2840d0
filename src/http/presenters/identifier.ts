/** Maps gazetteer units to the identifier-based records, in the requested language. */
import type { Static } from 'typebox';
import type { Gazetteer } from '../../gazetteer/gazetteer.js';
import type { Unit } from '../../gazetteer/types.js';
import type { Locator } from '../../geo/locations.js';
import type {
  CommuneDetail, CommuneListItem, DistrictDetail, DistrictListItem, ProvinceDetail, ProvinceListItem, VillageDetail,
  VillageListItem,
} from '../schemas/identifier.js';

export type Lang = 'en' | 'km';
type Detail = Static<typeof ProvinceDetail> | Static<typeof DistrictDetail> | Static<typeof CommuneDetail> | Static<typeof VillageDetail>;

export const nameIn = (unit: Unit, lang: Lang): string => (lang === 'km' ? unit.name_km : unit.name_latin);
const unitTypeIn = (unit: Unit, lang: Lang): string => (lang === 'km' ? unit.unit_type_km : unit.unit_type_latin);

/** The presenters of one gazetteer. */
export function identifierPresenters(gazetteer: Gazetteer, locate?: Locator) {
  /** `location` on province, district and commune details, with a locator (src/geo/locations.ts). */
  const where = (unit: Unit) => (locate ? { location: locate(unit) } : {});
  const span = (unit: Unit) => {
    const { prefix, range } = gazetteer.postalSpan(unit.code);
    return { postal_code_prefix: prefix, postal_code_range: range };
  };
  const counts = (unit: Unit) => gazetteer.descendantCounts(unit.code);
  const common = (unit: Unit, lang: Lang) => ({ id: unit.id, name: nameIn(unit, lang), code: unit.code, unit_type: unitTypeIn(unit, lang) });
  const own = (unit: Unit) => ({ slug: unit.slug, href: unit.href, postal_code: unit.postal_code });
  /** Id and name of an ancestor, for the `<level>_id` and `<level>_name` fields. */
  const ref = (unit: Unit, lang: Lang) => ({ id: unit.id, name: nameIn(unit, lang) });

  const provinceDetail = (unit: Unit, lang: Lang): Static<typeof ProvinceDetail> => {
    const { districts, communes, villages } = counts(unit);
    return { ...common(unit, lang), type: unit.type === 'capital' ? 'capital' : 'province', ...span(unit), ...own(unit),
      total_districts: districts, total_communes: communes, total_villages: villages, ...where(unit) };
  };
  const districtDetail = (unit: Unit, lang: Lang): Static<typeof DistrictDetail> => {
    const [province] = gazetteer.ancestors(unit.code).map((u) => ref(u, lang));
    const { communes, villages } = counts(unit);
    return { ...common(unit, lang), type: 'district', ...span(unit), ...own(unit),
      province_id: province!.id, province_name: province!.name, total_communes: communes, total_villages: villages, ...where(unit) };
  };
  const communeDetail = (unit: Unit, lang: Lang): Static<typeof CommuneDetail> => {
    const [province, district] = gazetteer.ancestors(unit.code).map((u) => ref(u, lang));
    return { ...common(unit, lang), type: 'commune', ...span(unit), ...own(unit),
      district_id: district!.id, district_name: district!.name, province_id: province!.id, province_name: province!.name,
      total_villages: counts(unit).villages, ...where(unit) };
  };
  const villageDetail = (unit: Unit, lang: Lang): Static<typeof VillageDetail> => {
    const [province, district, commune] = gazetteer.ancestors(unit.code).map((u) => ref(u, lang));
    return { ...common(unit, lang), type: 'village', ...own(unit),
      commune_id: commune!.id, commune_name: commune!.name, district_id: district!.id, district_name: district!.name,
      province_id: province!.id, province_name: province!.name };
  };
  const DETAIL = { province: provinceDetail, district: districtDetail, commune: communeDetail, village: villageDetail };

  return {
    provinceListItem: (unit: Unit, lang: Lang): Static<typeof ProvinceListItem> => ({
      ...common(unit, lang),
      slug: unit.slug,
      type: unit.type === 'capital' ? 'Capital' : 'Province',
      prefix: unit.code,
      postalCodePrefix: gazetteer.postalSpan(unit.code).prefix,
    }),
    districtListItem: (unit: Unit, lang: Lang): Static<typeof DistrictListItem> => {
      const { communes, villages } = counts(unit);
      return { ...common(unit, lang), type: 'district', ...span(unit), total_communes: communes, total_villages: villages };
    },
    communeListItem: (unit: Unit, lang: Lang): Static<typeof CommuneListItem> => common(unit, lang),
    villageListItem: (unit: Unit, lang: Lang): Static<typeof VillageListItem> => ({
      ...common(unit, lang), type: 'village', postal_code: unit.postal_code,
    }),
    provinceDetail,
    districtDetail,
    communeDetail,
    villageDetail,
    /** The detail record of a unit of any level. */
    detail: (unit: Unit, lang: Lang): Detail => DETAIL[unit.level](unit, lang),
  };
}
