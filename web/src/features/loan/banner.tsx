/**
 * The home banner carousel. A chunk of its own, since Swiper brings react-spring
 * and use-gesture: home shows the first slide as plain markup of the same size
 * until it arrives, so the banner paints with the screen.
 */
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
