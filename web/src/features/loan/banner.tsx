/**
 * The home banner: the licence, no-fees and prepayment messages as a strip of
 * slides the borrower swipes (or scrolls with the keyboard) through, with the next
 * slide peeking so it is plain there is more.
 *
 * Native CSS scroll snapping, not antd-mobile's `Swiper`: the Swiper moved on its
 * own (WCAG 2.2.2 asks for a way to pause moving content; these are the borrower's
 * protections, which should stay put while read), and its animation and gesture
 * libraries (react-spring, use-gesture: 24 KB gzip) were the largest part of the
 * home screen's code and kept the main thread busy on every frame of a slide
 * change (issue 15, Lighthouse).
 */
import { useTranslation } from 'react-i18next';

export default function Banner({ slides }: { slides: string[] }) {
  const { t } = useTranslation();
  return (
    // A scrollable region is focusable so keyboard users can scroll it (axe
    // `scrollable-region-focusable`).
    <section className="banner" aria-label={t('banner_label')} tabIndex={0}>
      <ul className="banner__track">
        {slides.map((text) => (
          <li key={text} className="banner__slide">
            {text}
          </li>
        ))}
      </ul>
    </section>
  );
}
