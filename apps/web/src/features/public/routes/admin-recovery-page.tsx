import { PublicPlaceholder } from '@/features/public/components/public-placeholder';

export default function AdminRecoveryPage() {
  return <PublicPlaceholder screen="adminRecovery" />;
}
