import { PlaceholderScreen } from '@/app/placeholder-screen';

export default function ProductsPage() {
  return <PlaceholderScreen screen="products" />;
}
