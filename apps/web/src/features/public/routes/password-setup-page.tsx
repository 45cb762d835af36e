import { PublicPlaceholder } from '@/features/public/components/public-placeholder';

export default function PasswordSetupPage() {
  return <PublicPlaceholder screen="passwordSetup" />;
}
