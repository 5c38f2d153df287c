import AccountTreeOutlinedIcon from '@mui/icons-material/AccountTreeOutlined';
import ApartmentOutlinedIcon from '@mui/icons-material/ApartmentOutlined';
import ArticleOutlinedIcon from '@mui/icons-material/ArticleOutlined';
import CorporateFareOutlinedIcon from '@mui/icons-material/CorporateFareOutlined';
import BusinessCenterOutlinedIcon from '@mui/icons-material/BusinessCenterOutlined';
import ChatOutlinedIcon from '@mui/icons-material/ChatOutlined';
import DescriptionOutlinedIcon from '@mui/icons-material/DescriptionOutlined';
import DnsOutlinedIcon from '@mui/icons-material/DnsOutlined';
import FolderOutlinedIcon from '@mui/icons-material/FolderOutlined';
import GroupOutlinedIcon from '@mui/icons-material/GroupOutlined';
import HandshakeOutlinedIcon from '@mui/icons-material/HandshakeOutlined';
import InventoryOutlinedIcon from '@mui/icons-material/Inventory2Outlined';
import LabelOutlinedIcon from '@mui/icons-material/LabelOutlined';
import LinkOutlinedIcon from '@mui/icons-material/LinkOutlined';
import ListAltOutlinedIcon from '@mui/icons-material/ListAltOutlined';
import LocalLibraryOutlinedIcon from '@mui/icons-material/LocalLibraryOutlined';
import MailOutlinedIcon from '@mui/icons-material/MailOutlined';
import MenuBookOutlinedIcon from '@mui/icons-material/MenuBookOutlined';
import PersonOutlinedIcon from '@mui/icons-material/PersonOutlined';
import PlaceOutlinedIcon from '@mui/icons-material/PlaceOutlined';
import ReceiptLongOutlinedIcon from '@mui/icons-material/ReceiptLongOutlined';
import SmartToyOutlinedIcon from '@mui/icons-material/SmartToyOutlined';
import StorageOutlinedIcon from '@mui/icons-material/StorageOutlined';
import TerminalOutlinedIcon from '@mui/icons-material/TerminalOutlined';
import TranslateOutlinedIcon from '@mui/icons-material/TranslateOutlined';
import type SvgIcon from '@mui/material/SvgIcon';
import { CONTACT_APP, CONTACT_URL } from '../../lib/config';
import { INTELBOOKS_PATH } from '../../lib/paths';

type SvgIconComponent = typeof SvgIcon;

export type LauncherEntry =
  | { kind: 'route'; label: string; to: string; icon: SvgIconComponent; tenantAdminOnly?: boolean }
  | { kind: 'external'; label: string; href: string; description: string; icon: SvgIconComponent }
  | { kind: 'disabled'; label: string; icon: SvgIconComponent };

export interface LauncherGroup {
  title: string;
  entries: LauncherEntry[];
}

const route = (label: string, to: string, icon: SvgIconComponent): LauncherEntry => ({ kind: 'route', label, to, icon });
const disabled = (label: string, icon: SvgIconComponent): LauncherEntry => ({ kind: 'disabled', label, icon });

/** SPEC §2 "Launcher menu". */
export const LAUNCHER: readonly LauncherGroup[] = [
  {
    title: 'Collection',
    entries: [
      route('Users', '/users/', GroupOutlinedIcon),
      route('Emails', '/emails?tab=1', MailOutlinedIcon),
      // SPEC writes the domains entry as "/emails?tab=1/"; the domains are the email page's next tab.
      route('Domains', '/emails?tab=2', DnsOutlinedIcon),
      route('Raw data', '/rawdata?tab=1', StorageOutlinedIcon),
      route('Buckets', '/rawdata?tab=2', FolderOutlinedIcon),
      route('URLs', '/urls?tab=0', LinkOutlinedIcon),
    ],
  },
  {
    title: 'Processing',
    entries: [
      route('Keywords', '/keywords/', LabelOutlinedIcon),
      route('Terminology', '/terminology/', TranslateOutlinedIcon),
      route('Geos', '/keywords?tab=1', PlaceOutlinedIcon),
      disabled('Prompts', TerminalOutlinedIcon),
      disabled('Report templates', DescriptionOutlinedIcon),
    ],
  },
  {
    title: 'Sharing',
    entries: [
      // The intelbooks readers open, as the tab and the home card do (the editor is /facts/, for admins).
      route('Intelbooks', INTELBOOKS_PATH, MenuBookOutlinedIcon),
      route('Library', '/library?tab=1', LocalLibraryOutlinedIcon),
      route('Ledger', '/ledger?tab=1', ReceiptLongOutlinedIcon),
      route('Organizations', '/organizations?tab=1', ApartmentOutlinedIcon),
      route('People', '/people?tab=1', PersonOutlinedIcon),
      route('Lists', '/lists?tab=1', ListAltOutlinedIcon),
      route('Library lists', '/lists?tab=1&type=LibraryList', ArticleOutlinedIcon),
      route('Ledger lists', '/lists?tab=1&type=LedgerList', InventoryOutlinedIcon),
      route('Organizations lists', '/lists?tab=1&type=OrganizationsList', BusinessCenterOutlinedIcon),
      route('People lists', '/lists?tab=1&type=PeopleList', AccountTreeOutlinedIcon),
      { kind: 'route', label: 'Tenants', to: '/clients/', icon: CorporateFareOutlinedIcon, tenantAdminOnly: true },
    ],
  },
  {
    title: 'Other',
    entries: [
      {
        kind: 'external',
        label: 'Contact us',
        href: CONTACT_URL,
        description: `on ${CONTACT_APP}`,
        icon: ChatOutlinedIcon,
      },
      route('Operator', '/search?tab=1', SmartToyOutlinedIcon),
      disabled('H2H', HandshakeOutlinedIcon),
    ],
  },
];

/** The launcher's three columns: the short Processing and Other groups share the middle one. */
export const LAUNCHER_COLUMNS: readonly (readonly string[])[] = [['Collection'], ['Processing', 'Other'], ['Sharing']];
