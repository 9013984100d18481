/**
 * The SQLite cache's word tokenizer (FTS5 unicode61, remove_diacritics 1, tokenchars
 * '@.-_|+') as tables: which characters separate tokens, which are dropped (diacritics), and how
 * the others fold (case). Read from SQLite itself for every code point below U+30000 (FTS5 knows
 * Unicode 6.1: characters assigned since are token characters there, and here); above, every
 * character is a token character, kept as it is. test/contract/postgres-consents.test.ts checks
 * these tables against SQLite's FTS5 for every code point.
 *
 * Encoding: comma-separated entries of base-36 numbers joined by colons. SEPARATORS and DROPPED:
 * inclusive ranges first:last. FOLDS: first:last:delta:step, the code points first, first+step, …
 * last each mapped to itself + delta.
 */
export const TABLE_LIMIT = 0x30000;
export const SEPARATORS =
  '1:16,18:18,1b:1b,1m:1r,2j:2m,2o:2o,3f:3f,3h:4p,4r:4x,50:50,52:54,57:57,5b:5b,5z:5z,6v:6v,jm:jp,k2:kf' +
  ',kl:kr,kt:kt,kv:lb,lh:lh,lp:lq,ls:ls,lu:m2,m4:ma,mh:mk,mn:mn,mq:of,ol:ol,ou:ou,p0:p1,p3:p3,s6:s6,w2:' +
  'w9,122:127,13d:13e,13j:13j,13l:153,16b:16c,16o:16s,16u:17f,17i:17j,18r:19b,19m:19p,19s:19s,1ck:1ck,1' +
  'cm:1d0,1d3:1d9,1dp:1dq,1ds:1e5,1e7:1e7,1e9:1e9,1f4:1fu,1ie:1io,1kb:1kj,1km:1kp,1li:1ll,1ln:1lv,1lx:1' +
  'lz,1m1:1m5,1m8:1mm,1nd:1nf,1ni:1ni,1r8:1ry,1s0:1s3,1tm:1to,1tq:1u7,1u9:1uf,1uq:1ut,1v4:1v4,1vl:1vn,1' +
  'x8:1x8,1xa:1xg,1xj:1xk,1xn:1xp,1xz:1xz,1ya:1yb,1yq:1yr,1yy:1yz,1z5:1z7,20s:20s,20u:20y,213:214,217:2' +
  '19,21d:21d,228:229,22d:22d,22p:22r,24c:24c,24e:24l,24n:24p,24r:24t,25e:25f,25s:25t,269:26b,27w:27w,2' +
  '7y:284,287:288,28b:28d,28m:28n,28y:28z,29c:29c,29u:29u,2bi:2bm,2bq:2bs,2bu:2bx,2c7:2c7,2cz:2d6,2dd:2' +
  'df,2f2:2f8,2fa:2fc,2fe:2fh,2fp:2fq,2g2:2g3,2gv:2gv,2gy:2gz,2ik:2ik,2im:2is,2iu:2iw,2iy:2j1,2j9:2ja,2' +
  'jm:2jn,2ki:2kj,2m6:2mc,2me:2mg,2mi:2ml,2mv:2mv,2n6:2n7,2nt:2nt,2o2:2o3,2q2:2q2,2q7:2qc,2qe:2qe,2qg:2' +
  'qn,2r6:2r8,2sx:2sx,2t0:2t6,2tb:2tb,2tj:2tr,2u2:2u3,2wh:2wh,2wk:2wp,2wr:2ws,2x4:2x9,2yp:2zj,304:30f,3' +
  '1t:32f,32l:32v,32x:33w,33y:34c,34e:34q,36z:37i,37u:37z,386:389,38e:38g,38i:38k,38n:38t,38x:390,39e:3' +
  '9p,39r:39r,3a2:3a7,3cr:3cr,3tp:3u0,3v4:3vd,3y8:3y8,4fh:4fi,4g0:4g0,4gr:4gs,4iz:4j1,4k2:4k4,4ky:4l2,4' +
  'lu:4lv,4mq:4mr,4ok:4pi,4pk:4pn,4pp:4pp,4qo:4r2,4vd:4vd,4yo:4yz,4z4:4zf,4zk:4zk,4zo:4zp,52o:534,53c:5' +
  '3d,53y:54v,55j:55n,55q:55r,579:57i,57k:58c,58f:58f,59c:59i,59k:59p,5c0:5c4,5dg:5dw,5ei:5fg,5fk:5fm,5' +
  'gh:5gt,5ie:5ir,5j0:5j3,5k4:5kn,5kr:5kv,5mm:5mn,5og:5on,5ow:5pk,5pp:5pp,5pu:5pw,5vk:5wm,5x8:5xb,69p:6' +
  '9p,69r:69t,6a5:6a7,6al:6an,6b1:6b3,6bh:6bi,6bk:6ec,6ei:6en,6ey:6f2,6fe:6fi,6g0:6gp,6hc:6i8,6io:6ip,6' +
  'ir:6iu,6iw:6ix,6j8:6j8,6ja:6jc,6ji:6jn,6jp:6jp,6jr:6jr,6jt:6jt,6jy:6jy,6ka:6kb,6kg:6kk,6kq:6kt,6kv:6' +
  'kv,6mo:73n,740:752,75s:762,78c:7ah,7b4:7pb,7pd:7sl,7tg:8jw,8k0:8k9,8v9:8ve,8vj:8vl,8vt:8vw,8vy:8vz,8' +
  'z4:8z4,8zj:8zj,928:94e,94g:94r,96o:97d,97f:99v,9a8:9g5,9gw:9h7,9hc:9hg,9hk:9i8,9ii:9io,9iu:9iv,9j1:9' +
  'j3,9ll:9lo,9ls:9ls,9ob:9ob,9sg:9sh,9sm:9sv,9ts:9ur,9vk:9we,9wq:9xj,9xs:9xs,9y8:9z3,9ze:a0g,a0w:a2m,a' +
  '2o:a9r,fcw:fen,wi8:wjq,wla:wlb,wst:wsv,wvj:wvy,wwv:wwv,wz4:wzb,wzk:x06,x0g:x0h,x3d:x3e,x6q:x6q,x6u:x' +
  '6u,x6z:x6z,x7n:x7v,x86:x89,x9w:x9z,xa8:xa9,xbo:xc4,xce:xcf,xcw:xdd,xdk:xdm,xeu:xf3,xfr:xg3,xgf:xgf,x' +
  'hc:xhf,xir:xjh,xjy:xjz,xm1:xme,xmr:xmr,xn0:xn1,xng:xnj,xo7:xo9,xob:xob,xps:xps,xpu:xpw,xpz:xq0,xq6:x' +
  'q7,xq9:xq9,xr2:xr3,xrf:xrl,xrp:xrq,xyb:xyl,1dlq:1dlq,1dm1:1dm1,1dpu:1dq9,1e0u:1e0v,1e64:1e65,1e68:1e' +
  '6x,1e74:1e7a,1e7k:1e8i,1e8k:1e92,1e94:1e97,1edb:1edb,1edd:1edr,1ee2:1ee8,1eez:1ef4,1efv:1eg5,1ejk:1e' +
  'jq,1ejs:1ejy,1ek9:1ekf,1erk:1erm,1et3:1etb,1eux:1evd,1evk:1evv,1exc:1eyl,1fa7:1fa7,1fbk:1fbk,1g7r:1g' +
  '7r,1gdb:1gdb,1ge7:1ge7,1gjl:1gjn,1gjp:1gjq,1gjw:1gjz,1gl4:1gl6,1glb:1glb,1gls:1gm0,1gn3:1gn3,1gs9:1g' +
  'sf,1hq8:1hqa,1hrs:1hsd,1hts:1htu,1hv4:1hvl,1hxc:1hxe,1hyf:1hys,1hz4:1hz7,1i0w:1i0y,1i2b:1i2o,1i2t:1i' +
  '2w,1j1n:1j1z,1lrk:1lrn,20k1:20la,20lr:20lu,2jnk:2jud,2juo:2jvq,2jvt:2k0t,2k1s:2k3p,2k8w:2kba,2kzl:2k' +
  'zl,2l0b:2l0b,2l17:2l17,2l1x:2l1x,2l2t:2l2t,2l3j:2l3j,2l4f:2l4f,2l55:2l55,2l61:2l61,2l6r:2l6r,2prk:2p' +
  'rl,2pz4:2q0b,2q0g:2q37,2q3k:2q3y,2q41:2q4e,2q4h:2q4v,2q4x:2q5b,2q6o:2q7i,2q7k:2q97,2q9c:2qai,2qcm:2q' +
  'de,2qds:2qey,2qf4:2qfc,2qfk:2qfl,2qkg:2qlc,2qls:2qlx,2qlz:2qnw,2qo0:2qoj,2qow:2qpw,2qpy:2qq2,2qqo:2q' +
  'r4,2qrk:2qta,2qtc:2qtc,2qte:2qyf,2qyh:2qyk,2qyo:2r0d,2r0g:2r0j,2r0w:2r1j,2r5n:2r7k,2r7p:2r7z,2r9c:2r' +
  'b9,2rcw:2rg3';
export const DROPPED = 'lc:lg,li:lo,lr:lr,lt:lt,m3:m3,mb:mg,ml:mm,mo:mp';
export const FOLDS =
  '1t:2i:w:1,51:51:lj:1,5c:5c:-2n:1,5d:5d:-2o:1,5e:5e:-2p:1,5f:5f:-2q:1,5g:5g:-2r:1,5h:5h:-2s:1,5i:5i:w' +
  ':1,5j:5j:-2s:1,5k:5k:-2r:1,5l:5l:-2s:1,5m:5m:-2t:1,5n:5n:-2u:1,5o:5o:-2r:1,5p:5p:-2s:1,5q:5q:-2t:1,5' +
  'r:5r:-2u:1,5s:5s:w:1,5t:5u:-2r:1,5v:5v:-2s:1,5w:5w:-2t:1,5x:5x:-2u:1,5y:5y:-2v:1,60:60:w:1,61:61:-2s' +
  ':1,62:62:-2t:1,63:63:-2u:1,64:64:-2v:1,65:65:-2s:1,66:66:w:1,68:68:-3j:1,69:69:-3k:1,6a:6a:-3l:1,6b:' +
  '6b:-3m:1,6c:6c:-3n:1,6d:6f:-3o:2,6g:6g:-3n:1,6h:6h:-3o:1,6i:6i:-3p:1,6j:6j:-3q:1,6k:6k:-3n:1,6l:6l:-' +
  '3o:1,6m:6m:-3p:1,6n:6n:-3q:1,6p:6q:-3n:1,6r:6r:-3o:1,6s:6s:-3p:1,6t:6t:-3q:1,6u:6u:-3r:1,6x:6x:-3o:1' +
  ',6y:6y:-3p:1,6z:6z:-3q:1,70:70:-3r:1,71:71:-3o:1,73:73:-3q:1,74:74:-4f:1,75:75:-4g:1,76:76:-4h:1,77:' +
  '77:-4i:1,78:78:-4j:1,79:79:-4k:1,7a:7a:-4j:1,7b:7b:-4k:1,7c:7c:-4l:1,7d:7d:-4m:1,7e:7e:-4n:1,7f:7f:-' +
  '4o:1,7g:7g:-4p:1,7h:7i:-4q:1,7j:7j:-4r:1,7k:7k:1:1,7m:7m:-4t:1,7n:7n:-4u:1,7o:7o:-4v:1,7p:7p:-4w:1,7' +
  'q:7q:-4x:1,7r:7r:-4y:1,7s:7s:-4z:1,7t:7t:-50:1,7u:7u:-51:1,7v:7v:-52:1,7w:7w:-51:1,7x:7x:-52:1,7y:7y' +
  ':-53:1,7z:7z:-54:1,80:80:-55:1,81:81:-56:1,82:82:-57:1,83:84:-58:1,85:85:-59:1,86:86:1:1,88:88:-5b:1' +
  ',89:89:-5c:1,8a:8a:-5d:1,8b:8b:-5e:1,8c:8c:-5f:1,8d:8d:-5g:1,8e:8e:-5h:1,8f:8f:-5i:1,8g:8g:-5j:1,8i:' +
  '8i:1:1,8k:8k:-5m:1,8l:8m:-5n:1,8n:8n:-5o:1,8p:8p:-5p:1,8q:8q:-5q:1,8r:8r:-5r:1,8s:8s:-5s:1,8t:8t:-5t' +
  ':1,8u:8u:-5u:1,8v:8x:1:2,8z:8z:-5x:1,90:90:-5y:1,91:91:-5z:1,92:92:-60:1,93:93:-61:1,94:94:-62:1,96:' +
  '96:1:1,98:98:-65:1,99:99:-66:1,9a:9a:-67:1,9b:9b:-68:1,9c:9c:-69:1,9d:9d:-6a:1,9e:9e:1:1,9g:9g:-6a:1' +
  ',9h:9h:-6b:1,9i:9i:-6c:1,9j:9j:-6d:1,9k:9k:-6e:1,9l:9m:-6f:1,9n:9n:-6g:1,9o:9o:-6h:1,9p:9p:-6i:1,9q:' +
  '9q:-6j:1,9r:9r:-6k:1,9s:9s:-6l:1,9t:9u:-6m:1,9v:9v:-6n:1,9w:9w:-6o:1,9x:9x:-6p:1,9y:9y:1:1,a0:a0:-6r' +
  ':1,a1:a1:-6s:1,a2:a2:-6t:1,a3:a3:-6u:1,a4:a4:-6v:1,a5:a5:-6w:1,a6:a6:-6x:1,a7:a7:-6y:1,a8:a8:-6z:1,a' +
  '9:a9:-70:1,aa:aa:-71:1,ab:ab:-72:1,ac:ac:-71:1,ad:ad:-72:1,ae:ae:-71:1,af:af:-72:1,ag:ah:-73:1,ai:ai' +
  ':-74:1,aj:aj:-75:1,ak:ak:-76:1,al:al:-77:1,am:am:-78:1,an:an:-7g:1,ap:ap:5u:1,aq:as:1:2,au:au:5q:1,a' +
  'v:av:1:1,ax:ay:5p:1,az:az:1:1,b2:b2:27:1,b3:b3:5m:1,b4:b4:5n:1,b5:b5:1:1,b7:b7:5p:1,b8:b8:5r:1,ba:ba' +
  ':5v:1,bb:bb:5t:1,bc:bc:1:1,bg:bg:5v:1,bh:bh:5x:1,bj:bj:5y:1,bk:bk:-8h:1,bl:bl:-8i:1,bm:bo:1:2,bq:bq:' +
  '62:1,br:br:1:1,bt:bt:62:1,bw:bw:1:1,by:by:62:1,bz:bz:-8q:1,c0:c0:-8r:1,c1:c2:61:1,c3:c5:1:2,c7:c7:63' +
  ':1,c8:c8:1:1,cc:cc:1:1,ck:ck:2:1,cl:cl:1:1,cn:cn:2:1,co:co:1:1,cq:cq:2:1,cr:cr:1:1,ct:ct:-a4:1,cu:cu' +
  ':-a5:1,cv:cv:-9y:1,cw:cw:-9z:1,cx:cx:-9u:1,cy:cy:-9v:1,cz:cz:-9q:1,d0:d0:-9r:1,d1:d7:1:2,da:dg:1:2,d' +
  'i:di:-an:1,dj:dj:-ao:1,dk:dk:-al:1,dl:dl:-am:1,dm:dm:-aj:1,dn:dn:-ak:1,do:dq:1:2,ds:ds:-au:1,dt:dt:2' +
  ':1,du:du:1:1,dw:dw:-b1:1,dx:dx:-b2:1,dy:dy:-2p:1,dz:dz:-1k:1,e0:e0:-ay:1,e1:e1:-az:1,e2:e6:1:2,e8:e8' +
  ':-bj:1,e9:e9:-bk:1,ea:ea:-bl:1,eb:eb:-bm:1,ec:ec:-bj:1,ed:ed:-bk:1,ee:ee:-bl:1,ef:ef:-bm:1,eg:eg:-bj' +
  ':1,eh:eh:-bk:1,ei:ei:-bl:1,ej:ej:-bm:1,ek:ek:-bh:1,el:el:-bi:1,em:em:-bj:1,en:en:-bk:1,eo:eo:-bi:1,e' +
  'p:ep:-bj:1,eq:eq:-bk:1,er:er:-bl:1,es:es:-bj:1,et:et:-bk:1,eu:eu:-bl:1,ev:ev:-bm:1,ew:ew:-bp:1,ex:ey' +
  ':-bq:1,ez:ez:-br:1,f0:f0:1:1,f2:f2:-c6:1,f3:f3:-c7:1,f4:f4:-3m:1,f6:f8:1:2,fa:fa:-cl:1,fb:fb:-cm:1,f' +
  'c:fc:-cj:1,fd:fd:-ck:1,fe:fg:1:2,fi:fi:-cf:1,fj:fj:-cg:1,fk:fk:1:1,fm:fm:-c9:1,fn:fn:-ca:1,fu:fu:8bv' +
  ':1,fv:fv:1:1,fx:fx:-4j:1,fy:fy:8bs:1,g1:g1:1:1,g3:g3:-5f:1,g4:g4:1x:1,g5:g5:1z:1,g6:ge:1:2,og:oi:1:2' +
  ',om:om:1:1,p2:p2:12:1,p4:p6:11:1,p8:p8:1s:1,pa:pb:1r:1,pd:pt:w:1,pv:q3:w:1,qq:qq:1:1,r3:r3:8:1,r4:r4' +
  ':-u:1,r5:r5:-p:1,r9:r9:-f:1,ra:ra:-m:1,rc:ry:1:2,s0:s0:-1i:1,s1:s1:-1c:1,s4:s4:-1o:1,s5:s5:-1s:1,s7:' +
  's7:1:1,s9:s9:-7:1,sa:sa:1:1,sd:sf:-3m:1,sg:sv:28:1,sw:tr:w:1,v4:w0:1:2,wa:xq:1:2,xs:xs:f:1,xt:y5:1:2' +
  ',y8:10m:1:2,10x:11y:1c:1,3a8:3b9:5ls:1,3bb:3bb:5ls:1,3bh:3bh:5ls:1,5xc:5xc:-5un:1,5xd:5xe:-5uo:1,5xf' +
  ':5xf:-5up:1,5xg:5xg:-5uq:1,5xh:5xh:-5ur:1,5xi:5xi:-5us:1,5xj:5xj:-5ut:1,5xk:5xk:1:1,5xm:5xm:-5uu:1,5' +
  'xn:5xn:-5uv:1,5xo:5xo:-5uw:1,5xp:5xp:-5ux:1,5xq:5xq:-5uy:1,5xr:5xr:-5uz:1,5xs:5xs:-5v0:1,5xt:5xt:-5v' +
  '1:1,5xu:5xu:-5v2:1,5xv:5xv:-5v3:1,5xw:5xy:1:2,5y0:5y0:-5v7:1,5y1:5y1:-5v8:1,5y2:5y2:-5v9:1,5y3:5y3:-' +
  '5va:1,5y4:5y4:1:1,5y6:5y6:-5vc:1,5y7:5y8:-5vd:1,5y9:5ya:-5ve:1,5yb:5yb:-5vf:1,5yc:5yc:-5vg:1,5yd:5yd' +
  ':-5vh:1,5ye:5ye:-5vi:1,5yf:5yf:-5vj:1,5yg:5yg:-5vk:1,5yh:5yh:-5vl:1,5yi:5yi:-5vm:1,5yj:5yk:-5vn:1,5y' +
  'l:5yl:-5vo:1,5ym:5ym:1:1,5yo:5yo:-5vp:1,5yp:5yp:-5vq:1,5yq:5yq:-5vr:1,5yr:5yr:-5vs:1,5ys:5ys:-5vt:1,' +
  '5yt:5yu:-5vu:1,5yv:5yv:-5vv:1,5yw:5yw:1:1,5yy:5yy:-5vy:1,5yz:5yz:-5vz:1,5z0:5z0:-5w0:1,5z1:5z2:-5w1:' +
  '1,5z3:5z3:-5w2:1,5z4:5z4:-5w3:1,5z5:5z5:-5w4:1,5z6:5z6:-5w5:1,5z7:5z8:-5w6:1,5z9:5z9:-5w7:1,5za:5za:' +
  '-5w8:1,5zb:5zb:-5w9:1,5zc:5zc:-5wa:1,5zd:5zd:-5wb:1,5ze:5ze:-5wc:1,5zf:5zf:-5wd:1,5zg:5zm:1:2,5zo:5z' +
  'o:-5wk:1,5zp:5zp:-5wl:1,5zq:5zq:-5wm:1,5zr:5zr:-5wn:1,5zs:5zs:-5wm:1,5zt:5zt:-5wn:1,5zu:5zu:-5wo:1,5' +
  'zv:5zv:-5wp:1,5zw:5zw:1:1,5zy:5zy:-5ws:1,5zz:600:-5wt:1,601:601:-5wu:1,602:602:-5wv:1,603:603:-5ww:1' +
  ',604:608:1:2,60a:60a:-5x2:1,60b:60b:-5x3:1,60c:60c:-5x4:1,60d:60d:-5x5:1,60e:60e:-5x6:1,60f:60f:-5x7' +
  ':1,60g:60g:-5x8:1,60h:60i:-5x9:1,60j:60j:-5xa:1,60k:60k:-5xb:1,60l:60l:-5xc:1,60m:60m:-5xd:1,60n:60n' +
  ':-5xe:1,60o:60q:1:2,60s:60s:-5xi:1,60t:60t:-5xj:1,60u:60u:-5xk:1,60v:60w:-5xl:1,60x:60x:-5xm:1,60y:6' +
  '0y:-5xn:1,60z:60z:-5xo:1,610:610:-5xp:1,611:611:-5xq:1,612:612:-5xr:1,613:613:-5xs:1,614:614:-5xt:1,' +
  '615:616:-5xu:1,617:617:-5xv:1,618:618:-5xw:1,619:61a:-5xx:1,61b:61c:-5xy:1,61d:61d:-5xz:1,61e:61e:-5' +
  'y0:1,61f:61f:-5y1:1,61g:61g:-5y2:1,61h:61h:-5y3:1,61i:61i:-5ym:1,61j:61j:-5yb:1,61k:61k:-5y9:1,61l:6' +
  '1l:-5y8:1,61n:61n:-5yg:1,61q:61q:-5vj:1,61s:61s:-5z3:1,61t:61t:-5z4:1,61u:61u:-5z5:1,61v:61v:-5z6:1,' +
  '61w:62e:1:2,62g:62g:-5zn:1,62h:62h:-5zo:1,62i:62i:-5zp:1,62j:62j:-5zq:1,62k:62k:-5zr:1,62l:62l:-5zs:' +
  '1,62m:62u:1:2,62w:62w:-5zz:1,62x:62x:-600:1,62y:62y:-601:1,62z:62z:-602:1,630:630:-5zx:1,631:631:-5z' +
  'y:1,632:632:-5zz:1,633:633:-600:1,634:63m:1:2,63o:63o:-60f:1,63p:63p:-60g:1,63q:63q:-60h:1,63r:63r:-' +
  '60i:1,63s:640:1:2,642:642:-60p:1,643:643:-60q:1,644:644:-60r:1,645:645:-60s:1,646:646:-60t:1,647:647' +
  ':-60u:1,648:648:-60v:1,649:649:-60w:1,64a:64e:1:2,64o:64v:-8:1,654:659:-8:1,65k:65r:-8:1,660:667:-8:' +
  '1,66g:66l:-8:1,66x:673:-8:2,67c:67j:-8:1,688:68f:-8:1,68o:68v:-8:1,694:69b:-8:1,69k:69l:-8:1,69m:69n' +
  ':-22:1,69o:69o:-9:1,69q:69q:-5j9:1,6a0:6a3:-2e:1,6a4:6a4:-9:1,6ag:6ah:-8:1,6ai:6aj:-2s:1,6aw:6ax:-8:' +
  '1,6ay:6az:-34:1,6b0:6b0:-7:1,6bc:6bd:-3k:1,6be:6bf:-3i:1,6bg:6bg:-9:1,6jq:6jq:-5st:1,6ju:6ju:-6gv:1,' +
  '6jv:6jv:-6h6:1,6k2:6k2:s:1,6lc:6lr:g:1,6mb:6mb:1:1,8ow:8q6:1c:1,8rk:8rk:1:1,8rm:8rm:-8af:1,8rn:8rn:-' +
  '2xy:1,8ro:8ro:-89z:1,8rr:8rv:1:2,8rx:8rx:-8bg:1,8ry:8ry:-8al:1,8rz:8rz:-8bj:1,8s0:8s0:-8bi:1,8s2:8s2' +
  ':1:1,8s5:8s5:1:1,8se:8sf:-8cf:1,8sg:8v6:1:2,8vf:8vh:1:2,8vm:8vm:1:1,wu8:wvg:1:2,ww0:wwm:1:2,x0i:x0u:' +
  '1:2,x0y:x2m:1:2,x2x:x2z:1:2,x31:x31:-r9g:1,x32:x3a:1:2,x3f:x3f:1:1,x3h:x3h:-wmg:1,x3k:x3m:1:2,x40:x4' +
  '8:1:2,x4a:x4a:-wn8:1,1ee9:1eey:w:1,1fcw:1fdz:14:1';

/**
 * Where the cache's substring index (FTS5 trigram, remove_diacritics 1) folds a character otherwise
 * than the word tokenizer: it folds characters with two diacritics to their base letter (the word
 * tokenizer keeps them) and folds a few characters the word tokenizer treats as separators.
 * Entries code:folded, base 36. Read from SQLite; test/contract/postgres-consents.test.ts checks
 * every code point.
 */
export const GRAM_FOLDS =
  'd1:39,d2:39,d3:39,d4:39,d5:39,d6:39,d7:39,d8:39,da:2p,db:2p,do:33,dp:33,e2:2p,e3:2p,fe:33,ff:33,fg:3' +
  '3,fh:33,fk:33,fl:33,n9:qh,5xk:2r,5xl:2r,5xw:2t,5xx:2t,5xy:2t,5xz:2t,5y4:2t,5y5:2t,5ym:2x,5yn:2x,5yw:' +
  '30,5yx:30,5zg:33,5zh:33,5zi:33,5zj:33,5zk:33,5zl:33,5zm:33,5zn:33,5zw:36,5zx:36,604:37,605:37,606:37' +
  ',607:37,608:37,609:37,60o:39,60p:39,60q:39,60r:39,61w:2p,61x:2p,61y:2p,61z:2p,620:2p,621:2p,622:2p,6' +
  '23:2p,624:2p,625:2p,626:2p,627:2p,628:2p,629:2p,62a:2p,62b:2p,62c:2p,62d:2p,62e:2p,62f:2p,62m:2t,62n' +
  ':2t,62o:2t,62p:2t,62q:2t,62r:2t,62s:2t,62t:2t,62u:2t,62v:2t,634:33,635:33,636:33,637:33,638:33,639:3' +
  '3,63a:33,63b:33,63c:33,63d:33,63e:33,63f:33,63g:33,63h:33,63i:33,63j:33,63k:33,63l:33,63m:33,63n:33,' +
  '63s:39,63t:39,63u:39,63v:39,63w:39,63x:39,63y:39,63z:39,640:39,641:39,792:79s,793:79t,794:79u,795:79' +
  'v,796:79w,797:79x,798:79y,799:79z,79a:7a0,79b:7a1,79c:7a2,79d:7a3,79e:7a4,79f:7a5,79g:7a6,79h:7a7,79' +
  'i:7a8,79j:7a9,79k:7aa,79l:7ab,79m:7ac,79n:7ad,79o:7ae,79p:7af,79q:7ag,79r:7ah,1eke:1ekd,1ekf:1ekd';
