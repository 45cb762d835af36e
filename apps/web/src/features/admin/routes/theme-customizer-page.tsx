import { PlaceholderScreen } from '@/app/placeholder-screen';

export default function ThemeCustomizerPage() {
  return <PlaceholderScreen screen="themeCustomizer" area="admin" />;
}
