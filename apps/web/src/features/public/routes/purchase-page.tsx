import { PublicPlaceholder } from '@/features/public/components/public-placeholder';

export default function PurchasePage() {
  return <PublicPlaceholder screen="purchase" />;
}
