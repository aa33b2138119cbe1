/**
 * Region → province → city/municipality (PRODUCT.md 11, PSGC names), as three
 * linked platform pickers, each a form row with its own label (render it inside an
 * antd-mobile `Form`): choosing a region offers its provinces, a province its
 * cities. A region without provinces (NCR) offers its cities directly and says so
 * in the province row. Native `<select>`s like every other list choice here
 * (`SelectField`), so phones show their own wheel and keyboards and screen readers
 * work as usual. The value is the stored form `"Region,Province,City"` (`@/lib/place`),
 * '' until a city is chosen.
 */
import { useMemo, useState } from 'react';
import Form from 'antd-mobile/es/components/form';
import { useTranslation } from 'react-i18next';
import { SelectField, optionsOf } from '@/components/select-field';
import { emptyPlace, formatPlace, hasProvinces, placeIn, storePlace, type PlaceParts, type Region } from '@/lib/place';

export interface PlacePickerProps {
  /** The tree; `undefined` while it loads. */
  regions: readonly Region[] | undefined;
  /** The stored value; a value not in the tree (an old "province,city") starts empty. */
  value: string;
  onChange: (stored: string) => void;
}

export function PlacePicker({ regions, value, onChange }: PlacePickerProps) {
  const { t } = useTranslation();
  // The parts chosen so far; a half-made choice (region only) has no stored value yet.
  const [picked, setPicked] = useState<PlaceParts | null>(null);
  const parts = picked ?? placeIn(regions ?? [], value);
  const region = regions?.find((r) => r.region === parts.region);
  const withProvinces = hasProvinces(region);
  const cities = useMemo(
    () => (withProvinces ? region?.provinces?.find((p) => p.province === parts.province)?.cities : region?.cities) ?? [],
    [region, withProvinces, parts.province],
  );

  // A value saved before this picker (or no longer listed): shown, to be chosen again.
  const unlisted = !picked && !!regions && !!value && !parts.region;

  const choose = (next: PlaceParts) => {
    setPicked(next);
    onChange(storePlace(next));
  };

  return (
    <>
      {unlisted && (
        <Form.Item label={t('province_city')}>
          <span data-testid="place-unlisted">{formatPlace(value)}</span>
        </Form.Item>
      )}
      <Form.Item label={t('place_region')}>
        <SelectField
          label={t('place_region')}
          value={parts.region}
          options={optionsOf(regions?.map((r) => r.region))}
          onChange={(name) => choose({ ...emptyPlace, region: name })}
          disabled={!regions}
        />
      </Form.Item>
      <Form.Item label={t('place_province')}>
        {region && !withProvinces ? (
          <span className="muted" data-testid="no-province">
            {t('place_no_province')}
          </span>
        ) : (
          <SelectField
            label={t('place_province')}
            value={parts.province}
            options={optionsOf(region?.provinces?.map((p) => p.province))}
            onChange={(name) => choose({ region: parts.region, province: name, city: '' })}
            disabled={!region}
          />
        )}
      </Form.Item>
      <Form.Item label={t('place_city')}>
        <SelectField
          label={t('place_city')}
          value={parts.city}
          options={optionsOf(cities)}
          onChange={(name) => choose({ ...parts, city: name })}
          disabled={!region || (withProvinces && !parts.province)}
        />
      </Form.Item>
    </>
  );
}
