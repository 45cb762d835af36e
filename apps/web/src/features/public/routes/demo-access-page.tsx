import { PublicPlaceholder } from '@/features/public/components/public-placeholder';

export default function DemoAccessPage() {
  return <PublicPlaceholder screen="demoAccess" />;
}
