/**
 * The three ID photos (front, back, hand-held with face). Each file is checked
 * on the client (JPEG or PNG by content, under 5 MB, PRODUCT.md 5) before it is
 * kept; a larger phone photo is first shrunk in the browser (`shrinkPhoto`), and
 * the borrower is told so. The server re-checks, re-encodes and strips metadata.
 */
import Toast from 'antd-mobile/es/components/toast';
import { CameraOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { AuthImage } from '@/components/auth-image';
import { shrinkPhoto } from '@/lib/shrink-photo';
import { checkImage } from '@/lib/validation';

export type PhotoKey = 'frontImage' | 'backImage' | 'handHoldImage';
export const PHOTO_KEYS: PhotoKey[] = ['frontImage', 'backImage', 'handHoldImage'];
export type PhotoSet = Partial<Record<PhotoKey, { file: Blob; url: string }>>;

export interface IdPhotosProps {
  photos: PhotoSet;
  onChange: (photos: PhotoSet) => void;
  /** URLs of the photos already on file (`/files/...`), shown until replaced. */
  existing?: Partial<Record<PhotoKey, string>>;
  readOnly?: boolean;
}

export function IdPhotos({ photos, onChange, existing, readOnly }: IdPhotosProps) {
  const { t } = useTranslation();
  const pick = async (key: PhotoKey, chosen: File | undefined) => {
    if (!chosen) return;
    const file = await shrinkPhoto(chosen);
    const problem = file ? await checkImage(file) : 'img_size_tips';
    if (!file || problem) {
      Toast.show({ content: t(problem ?? 'img_size_tips') });
      return;
    }
    if (file !== chosen) Toast.show({ content: t('photo_shrunk') });
    onChange({ ...photos, [key]: { file, url: URL.createObjectURL(file) } });
  };
  return (
    <div className="photo-grid">
      {PHOTO_KEYS.map((key) => {
        const fresh = photos[key]?.url;
        const onFile = existing?.[key];
        const url = fresh ?? onFile;
        return (
          <label key={key} className="photo-slot" data-testid={`photo-${key}`}>
            {fresh ? (
              <img src={fresh} alt={t(`photo_${key}`)} />
            ) : onFile ? (
              <AuthImage src={onFile} alt={t(`photo_${key}`)} />
            ) : (
              <CameraOutline fontSize={24} />
            )}
            {/* Over a photo the name is a caption along its bottom edge, not a chip over the middle of the card. */}
            <span className={url ? 'photo-slot__name photo-slot__name--caption' : 'photo-slot__name'}>{t(`photo_${key}`)}</span>
            {!readOnly && (
              <input
                type="file"
                accept="image/jpeg,image/png"
                aria-label={t(`photo_${key}`)}
                onChange={(e) => void pick(key, e.target.files?.[0])}
              />
            )}
          </label>
        );
      })}
    </div>
  );
}

/** The photos not chosen yet, in display order. */
export function missingPhotos(photos: PhotoSet): PhotoKey[] {
  return PHOTO_KEYS.filter((key) => !photos[key]);
}

/** True when all three new photos are chosen. */
export function allPhotos(photos: PhotoSet): photos is Required<PhotoSet> {
  return PHOTO_KEYS.every((key) => photos[key]);
}
