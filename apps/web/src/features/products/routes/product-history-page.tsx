import { PlaceholderScreen } from '@/app/placeholder-screen';

export default function ProductHistoryPage() {
  return <PlaceholderScreen screen="productHistory" />;
}
