import { PlaceholderScreen } from '@/app/placeholder-screen';

export default function SalesReturnsPage() {
  return <PlaceholderScreen screen="salesReturns" />;
}
