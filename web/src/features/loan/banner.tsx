/** The home banner carousel: the licence, no-fees and prepayment messages. */
import Swiper from 'antd-mobile/es/components/swiper';

export default function Banner({ slides }: { slides: string[] }) {
  return (
    <Swiper autoplay loop className="banner" indicatorProps={{ color: 'white' }}>
      {slides.map((text) => (
        <Swiper.Item key={text}>
          <div className="banner__slide">{text}</div>
        </Swiper.Item>
      ))}
    </Swiper>
  );
}
